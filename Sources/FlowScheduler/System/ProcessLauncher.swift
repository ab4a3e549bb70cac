import FlowSystem
import Foundation
import Synchronization

/// Starts runs as ``Subprocess``es, and learns of their end from SIGCHLD, read from a `signalfd` in
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
  /// The writing ends of warm runs' standard input, by pid, until they are handed over.
  private let handOvers = Mutex<[Int32: Int32]>([:])
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
    // Registered under the spawn's lock, so that however early the child ends, the reaping finds it.
    let options = Subprocess.Options(
      executable: request.executable, arguments: request.arguments, environment: request.environment,
      standardInput: request.awaitsHandOver ? .pipe : .null, standardOutput: .standardError, standardError: .inherit,
      endsWithFlow: false)
    do {
      let child = try Subprocess.spawn(options) { pid in children.withLock { $0[pid] = ended } }
      if request.awaitsHandOver { handOvers.withLock { $0[child.pid] = child.standardInput } }
      return child.pid
    } catch {
      let reason = error.code != 0 ? String(cString: strerror(error.code)) : error.message
      throw LaunchFailure("cannot start \(request.executable): \(reason)")
    }
  }

  /// Signals the run's process group (the run and anything it started), or the run alone when the
  /// group is gone.
  public func signal(_ pid: Int32, _ signal: Int32) {
    if kill(-pid, signal) != 0 { kill(pid, signal) }
  }

  public func handOver(_ pid: Int32, _ bytes: [UInt8]) -> Bool {
    guard let input = handOvers.withLock({ $0.removeValue(forKey: pid) }) else { return false }
    defer { close(input) }
    // A run that is gone closes its end: EPIPE, not a SIGPIPE that would end the scheduler.
    return Subprocess.withoutPipeSignal {
      var written = 0
      while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
      }
      return true
    }
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
        if let input = handOvers.withLock({ $0.removeValue(forKey: pid) }) { close(input) }
        ended.append((result == pid ? Termination(waitStatus: status) : .exited(-1), callback))
      }
      return ended
    }
    for (termination, callback) in ended { callback(termination) }
  }
}
