#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
// Linux system calls that Swift's Glibc module does not export, for the scheduler's one poll loop: its
// timer (timerfd on CLOCK_REALTIME), its doorbell (eventfd) and its signals (signalfd). All three are
// in glibc itself: nothing to link. Also fstatfs, with which the one file reader (FlowLibrary.RegularFile)
// tells a file in /proc or /sys from a workflow. And statx, through the system call (glibc declares its
// wrapper only under _GNU_SOURCE), for the file actions' sizes and dates: the only call that gives a
// file's creation (birth) time.
#include <linux/stat.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int clinux_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buffer) {
  return (int)syscall(SYS_statx, dirfd, path, flags, mask, buffer);
}
#endif
