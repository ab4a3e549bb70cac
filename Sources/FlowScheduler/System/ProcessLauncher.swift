import Foundation
import Synchronization

/// Starts runs with `posix_spawn`, and learns of their end from SIGCHLD, read from a `signalfd` in
/// the scheduler's poll (``RealtimeClock``), and `waitpid` on each of its own children — never
/// `waitpid(-1)`, which could reap a process someone else in this process is waiting for.
///
/// Each child gets:
/// - standard input from `/dev/null` (nobody answers a scheduled run), standard output and error onto
///   the scheduler's standard error (the service's log; standard output is kept for `--json`);
/// - its own process group, so that Ctrl-C at the terminal reaches the scheduler alone, which passes
///   the signal on once, and so that SIGKILL after the grace period reaches whatever the run started;
/// - default dispositions and an empty signal mask: the signals the scheduler blocks (to read them from
///   signalfds) would otherwise stay blocked in the child.
public final class ProcessLauncher: RunLauncher, @unchecked Sendable {
  private let children = Mutex<[Int32: @Sendable (Termination) -> Void]>([:])
  private let exits: SignalDescriptor

  public init(clock: RealtimeClock) throws(LaunchFailure) {
    exits = try SignalDescriptor([SIGCHLD])
    clock.watch(exits.descriptor) { [weak self] in
      guard let self else { return }
      _ = exits.take()
      reap()
    }
  }

  deinit { close(exits.descriptor) }

  public func launch(_ request: LaunchRequest, ended: @escaping @Sendable (Termination) -> Void) throws(LaunchFailure)
    -> Int32
  {
    let arguments = ([request.executable] + request.arguments).map { strdup($0) }
    let environment = request.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
    defer { (arguments + environment).forEach { free($0) } }
    var argv = arguments + [nil]
    var envp = environment + [nil]

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)

    // Held from the spawn until the child is known, so that however early it ends, the reaping finds it.
    return try children.withLock { children throws(LaunchFailure) in
      var pid: pid_t = 0
      let status = posix_spawn(&pid, request.executable, &actions, &attributes, &argv, &envp)
      guard status == 0 else {
        throw LaunchFailure("cannot start \(request.executable): \(String(cString: strerror(status)))")
      }
      children[pid] = ended
      return pid
    }
  }

  /// Signals the run's process group (the run and anything it started), or the run alone when the
  /// group is gone.
  public func signal(_ pid: Int32, _ signal: Int32) {
    if kill(-pid, signal) != 0 { kill(pid, signal) }
  }

  /// Reaps every child of ours that has ended. SIGCHLDs arriving together may count once, so every
  /// child is asked each time.
  private func reap() {
    let ended = children.withLock { children in
      var ended: [(Termination, @Sendable (Termination) -> Void)] = []
      for (pid, callback) in children {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid || (result < 0 && errno == ECHILD) else { continue }
        children[pid] = nil
        ended.append((result == pid ? Self.termination(status) : .exited(-1), callback))
      }
      return ended
    }
    for (termination, callback) in ended { callback(termination) }
  }

  /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which are macros Swift does not import.
  static func termination(_ status: Int32) -> Termination {
    status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
  }
}
