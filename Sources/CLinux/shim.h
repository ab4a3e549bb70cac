#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
// Linux system calls that Swift's Glibc module does not export, for the scheduler's one poll loop: its
// timer (timerfd on CLOCK_REALTIME), its doorbell (eventfd) and its signals (signalfd). All three are
// in glibc itself: nothing to link. Also fstatfs, with which the one file reader (FlowLibrary.RegularFile)
// tells a file in /proc or /sys from a workflow. And statx, through the system call (glibc declares its
// wrapper only under _GNU_SOURCE), for the file actions' sizes and dates: the only call that gives a
// file's creation (birth) time. And mallopt, with which `flow` keeps one malloc arena (Sources/flow).
#include <linux/stat.h>
#include <malloc.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <unistd.h>

static inline int clinux_statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buffer) {
  return (int)syscall(SYS_statx, dirfd, path, flags, mask, buffer);
}

// For run-shell's children (FlowSystem.Subprocess). `prctl` and `syscall` are variadic, which
// Swift cannot call, hence these wrappers.

// A descriptor that becomes readable when the process ends (Linux 5.3), so that one poll waits for the
// child's end, its output and a cancellation together; -1 with errno where the kernel lacks it.
static inline int clinux_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

// Makes this process the reaper of its orphaned descendants: a script's background job whose parent
// shell has exited becomes our child, so that ending a process group can wait until it is really gone
// (reaped) rather than leave a zombie for an init that may never reap it (a container's).
static inline int clinux_become_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// GNU extensions Swift's Glibc module leaves out (it is built without _GNU_SOURCE): pipes made
// close-on-exec atomically, so a child spawned at the same moment by another thread never inherits one,
// and the child's working directory set by posix_spawn itself (glibc 2.29).
int pipe2(int fds[2], int flags);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions, const char *__restrict path);
static inline int clinux_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
// accept(2) with close-on-exec set atomically, for `flow mcp --http`'s connections.
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
static inline int clinux_accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags) {
  return accept4(sockfd, addr, addrlen, flags);
}
static inline int clinux_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}

// An anonymous in-memory file, closed on exec: a script handed to an interpreter as /dev/fd/N.
static inline int clinux_memfd_create(const char *name) { return (int)syscall(SYS_memfd_create, name, 1U /* MFD_CLOEXEC */); }

#endif
