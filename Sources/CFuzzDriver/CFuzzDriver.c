#include "CFuzzDriver.h"

// Weak: a plain build has no libFuzzer, and the symbol is then null rather than a link error. Swift
// cannot test a weak function for null, hence this shim.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

int flow_fuzz_run_driver(int *argc, char ***argv, flow_fuzz_callback callback) {
  if (!LLVMFuzzerRunDriver) return -1;
  return LLVMFuzzerRunDriver(argc, argv, callback);
}
