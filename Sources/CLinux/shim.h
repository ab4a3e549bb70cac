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
#include <sys/epoll.h>
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

// D-Bus hands a file descriptor over the socket as SCM_RIGHTS ancillary data (logind's Inhibit returns
// one), which recvmsg's control messages carry and Swift cannot walk (CMSG_* are macros). Reads like
// recv(2) and stores up to `capacity` received descriptors, close-on-exec, in `fds`; any beyond are closed.
static inline ssize_t clinux_recv_fds(int fd, void *buffer, size_t length, int flags, int *fds, int capacity,
                                      int *count) {
  struct iovec vector = {buffer, length};
  union {
    char bytes[CMSG_SPACE(sizeof(int) * 16)];
    struct cmsghdr align;
  } control;
  struct msghdr message = {0};
  message.msg_iov = &vector;
  message.msg_iovlen = 1;
  message.msg_control = control.bytes;
  message.msg_controllen = sizeof control.bytes;
  *count = 0;
  ssize_t received = recvmsg(fd, &message, flags | 0x40000000 /* MSG_CMSG_CLOEXEC */);
  if (received < 0) return received;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    size_t number = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    int *received_fds = (int *)CMSG_DATA(header);
    for (size_t index = 0; index < number; index++) {
      if (*count < capacity) fds[(*count)++] = received_fds[index];
      else close(received_fds[index]);
    }
  }
  return received;
}

// One descriptor standing for several (the scheduler's bus connections): the scheduler's poll watches it
// for good, while connections come and go inside it. epoll_event is a packed struct, hence wrappers.
static inline int clinux_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int clinux_epoll_add(int epoll, int fd) {
  struct epoll_event event = {0};
  event.events = EPOLLIN;
  event.data.fd = fd;
  return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}
static inline int clinux_epoll_remove(int epoll, int fd) { return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL); }
// The descriptors ready now (without waiting), at most `capacity`.
static inline int clinux_epoll_ready(int epoll, int *fds, int capacity) {
  struct epoll_event events[16];
  if (capacity > 16) capacity = 16;
  int ready = epoll_wait(epoll, events, capacity, 0);
  for (int index = 0; index < ready; index++) fds[index] = events[index].data.fd;
  return ready;
}

#endif
