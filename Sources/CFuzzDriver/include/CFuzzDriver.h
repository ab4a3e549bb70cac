#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// What libFuzzer calls with each input; returns 0.
typedef int (*flow_fuzz_callback)(const uint8_t *data, size_t size);

/// Hands the command line to libFuzzer's LLVMFuzzerRunDriver when the binary was linked with
/// -sanitize=fuzzer, and returns its result; returns -1 when it was not (a plain build), so that the
/// same executable can replay inputs without libFuzzer.
int flow_fuzz_run_driver(int *argc, char ***argv, flow_fuzz_callback callback);

#endif
