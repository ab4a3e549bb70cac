#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
// Linux system calls that Swift's Glibc module does not export, for the scheduler's one poll loop: its
// timer (timerfd on CLOCK_REALTIME), its doorbell (eventfd) and its signals (signalfd). All three are
// in glibc itself: nothing to link. Also fstatfs, with which the one file reader (FlowLibrary.RegularFile)
// tells a file in /proc or /sys from a workflow.
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#endif
