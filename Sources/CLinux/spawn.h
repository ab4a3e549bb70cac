#ifndef CLINUX_SPAWN_H
#define CLINUX_SPAWN_H
// The one way flow starts a child (FlowSystem.Subprocess): clone(CLONE_VM | CLONE_VFORK) on a stack of its
// own, as posix_spawn does, so that nothing is copied and the parent waits only until the child has
// exec'd. It exists because posix_spawn cannot run code in the child, and two things must run there:
// PR_SET_PDEATHSIG (a child never outlives flow, even after `kill -9`) and a Landlock ruleset
// (run-shell's `fence:`). Between clone and execve the child makes only system calls, touches only its
// own stack and the request, and never returns into the parent's frames.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);

// Landlock's interface, written out: the system's <linux/landlock.h> may be older than the kernel.
#ifndef O_PATH
#define O_PATH 010000000
#endif
#define CLINUX_SYS_landlock_create_ruleset 444
#define CLINUX_SYS_landlock_add_rule 445
#define CLINUX_SYS_landlock_restrict_self 446
#define CLINUX_LANDLOCK_CREATE_RULESET_VERSION 1U
#define CLINUX_LANDLOCK_RULE_PATH_BENEATH 1
struct clinux_landlock_ruleset_attr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  // ABI 4
  uint64_t scoped;              // ABI 6
};
struct clinux_landlock_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

// One file action, in order: open /dev/null at `fd` (`source` < 0, `flags` the open flags), or dup2
// `source` to `fd`.
struct clinux_spawn_action {
  int fd;
  int source;
  int flags;
};

// A message to the keeper (below): a group started, or one reaped.
struct clinux_keeper_message {
  int32_t start;  // 1: a group started; 0: a group reaped
  int32_t group;
};

struct clinux_spawn_request {
  const char *path;
  char *const *argv;
  char *const *envp;
  const struct clinux_spawn_action *actions;
  int action_count;
  const char *directory;  // NULL: flow's own
  int ruleset;            // a Landlock ruleset to enforce, or -1
  int death_signal;       // sent to the child when the thread that started it ends, or 0
  pid_t parent;           // flow's pid: a child whose parent is already another has lost the race
  int keeper;             // the keeper's socket, which the child lists its group with, or -1
  int error;              // out: the errno that stopped the child before exec, 0 if it exec'd
};

static int clinux_spawn_child(void *argument) {
  struct clinux_spawn_request *request = (struct clinux_spawn_request *)argument;
  struct clinux_keeper_message listed = {0, 0};
  // Handlers are flow's code in flow's memory: every caught signal goes back to its default (ignored
  // ones too, as a fresh program expects), then the mask is emptied.
  for (int number = 1; number < NSIG; number++) {
    if (number == SIGKILL || number == SIGSTOP) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigaction(number, &action, NULL);
  }
  if (request->death_signal != 0) {
    if (prctl(PR_SET_PDEATHSIG, request->death_signal, 0, 0, 0) != 0) goto fail;
    // flow may have died between clone and prctl: then the signal never comes, so go now.
    if (getppid() != request->parent) _exit(127);
  }
  if (setpgid(0, 0) != 0) goto fail;
  // The child lists its own group with the keeper before it runs anything: listed by flow after the
  // spawn returned, a group whose program ran at once could outlive a flow killed in between.
  if (request->keeper >= 0) {
    listed.start = 1;
    listed.group = (int32_t)syscall(SYS_getpid);
    send(request->keeper, &listed, sizeof listed, MSG_NOSIGNAL);
  }
  for (int index = 0; index < request->action_count; index++) {
    const struct clinux_spawn_action *action = &request->actions[index];
    if (action->source < 0) {
      int fd = open("/dev/null", action->flags);
      if (fd < 0) goto fail;
      if (fd != action->fd) {
        if (dup2(fd, action->fd) < 0) goto fail;
        close(fd);
      }
    } else if (action->source == action->fd) {
      // dup2 onto itself would keep close-on-exec: clear it, as posix_spawn does.
      if (fcntl(action->fd, F_SETFD, 0) != 0) goto fail;
    } else if (dup2(action->source, action->fd) < 0) {
      goto fail;
    }
  }
  if (request->directory != NULL && chdir(request->directory) != 0) goto fail;
  if (request->ruleset >= 0) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) goto fail;
    if (syscall(CLINUX_SYS_landlock_restrict_self, request->ruleset, 0) != 0) goto fail;
  }
  sigset_t none;
  sigemptyset(&none);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, _NSIG / 8);
  execve(request->path, request->argv, request->envp);
fail:
  request->error = errno;
  // Never started: taken off the keeper's list, unless an action put another file where its socket was.
  if (listed.start == 1) {
    int kept = 1;
    for (int index = 0; index < request->action_count; index++) kept &= request->actions[index].fd != request->keeper;
    listed.start = 0;
    if (kept) send(request->keeper, &listed, sizeof listed, MSG_NOSIGNAL);
  }
  _exit(127);
}

// Starts the child and returns its pid, or -1 with errno (the child's, when it failed before exec).
__attribute__((noinline)) static pid_t clinux_spawn(struct clinux_spawn_request *request) {
  const size_t size = 64 << 10;
  void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) return -1;
  // No handler of flow's may run in the child while it shares flow's memory.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  request->error = 0;
  pid_t pid = clone(clinux_spawn_child, (char *)stack + size, 0x00000100 /* CLONE_VM */ | 0x00004000 /* CLONE_VFORK */ | SIGCHLD, request);
  int error = errno;
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  munmap(stack, size);
  if (pid > 0 && request->error != 0) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    errno = request->error;
    return -1;
  }
  if (pid < 0) errno = error;
  return pid;
}

// The keeper: a small process that outlives flow just long enough to end what flow started. A child
// killed with flow (PR_SET_PDEATHSIG) may have started children of its own (`sleep 1000 &` in a
// script), which no signal reaches when flow dies; they stay in the child's process group, so the
// keeper ends those groups. Over a SOCK_SEQPACKET socket, each child lists its own group (`+pid`,
// from clinux_spawn_child, before exec) and flow forgets each group it reaps (`-pid`); when flow dies, however it dies, the socket closes, and the keeper
// sends SIGKILL to every group still listed and exits. After fork it makes only system calls (the parent
// is multithreaded). Returns the keeper's pid, or -1 with errno.
static pid_t clinux_start_keeper(int socket) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  // Its own group, out of reach of the terminal's signals; nothing of flow's but its end of the socket.
  setpgid(0, 0);
  if (socket > 0) syscall(436 /* close_range */, 0, socket - 1, 0);
  syscall(436 /* close_range */, socket + 1, ~0U, 0);
  static pid_t groups[8192];
  int count = 0;
  struct clinux_keeper_message message;
  for (;;) {
    ssize_t got = recv(socket, &message, sizeof message, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got != (ssize_t)sizeof message) break;  // flow is gone
    if (message.group <= 0) continue;
    if (message.start) {
      if (count < (int)(sizeof groups / sizeof groups[0])) groups[count++] = message.group;
    } else {
      for (int index = 0; index < count; index++) {
        if (groups[index] == message.group) {
          groups[index] = groups[--count];
          break;
        }
      }
    }
  }
  for (int index = 0; index < count; index++) kill(-groups[index], SIGKILL);
  _exit(0);
}

// The calling thread's id: the main thread's is the pid.
static inline pid_t clinux_gettid(void) { return (pid_t)syscall(SYS_gettid); }

// Landlock (Linux 5.13): the ABI version, or -1 with errno where it is missing or disabled.
static inline int clinux_landlock_abi(void) {
  return (int)syscall(CLINUX_SYS_landlock_create_ruleset, NULL, 0, CLINUX_LANDLOCK_CREATE_RULESET_VERSION);
}

// A ruleset handling these accesses (a descriptor, close-on-exec), or -1 with errno.
static inline int clinux_landlock_ruleset(uint64_t filesystem, uint64_t network, uint64_t scoped) {
  struct clinux_landlock_ruleset_attr attributes;
  memset(&attributes, 0, sizeof attributes);
  attributes.handled_access_fs = filesystem;
  attributes.handled_access_net = network;
  size_t size = sizeof attributes;
  // The kernel takes the size of the ABI it knows: a smaller struct for an older one.
  if (scoped != 0) {
    attributes.scoped = scoped;
  } else if (network != 0) {
    size = offsetof(struct clinux_landlock_ruleset_attr, scoped);
  } else {
    size = offsetof(struct clinux_landlock_ruleset_attr, handled_access_net);
  }
  return (int)syscall(CLINUX_SYS_landlock_create_ruleset, &attributes, size, 0);
}

// The rights that apply to a file rather than a folder beneath it.
// (execute, write, read, truncate, ioctl on a device).
#define CLINUX_LANDLOCK_FILE_RIGHTS ((1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 14) | (1ULL << 15))

// Allows `access` beneath `path` (a file: only the rights a file has). 0, or -1 with errno (ENOENT for a
// path that is not there).
static inline int clinux_landlock_allow(int ruleset, const char *path, uint64_t access) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat info;
  if (fstat(fd, &info) != 0) {
    int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  struct clinux_landlock_path_beneath_attr rule;
  memset(&rule, 0, sizeof rule);
  rule.allowed_access = S_ISDIR(info.st_mode) ? access : (access & CLINUX_LANDLOCK_FILE_RIGHTS);
  rule.parent_fd = fd;
  int result = (int)syscall(CLINUX_SYS_landlock_add_rule, ruleset, CLINUX_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  int error = errno;
  close(fd);
  errno = error;
  return result;
}

#endif
