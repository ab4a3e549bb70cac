import FlowSystem
import FoundationEssentials
import Glibc
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
///
/// A warm run (``LaunchRequest/awaitsHandOver``) gets its firings on a pipe as its standard input and
/// reports each run's end on another, its descriptor 3, read in the scheduler's poll too.
public final class ProcessLauncher: RunLauncher, @unchecked Sendable {
  private let children = Mutex<[Int32: @Sendable (Termination) -> Void]>([:])
  /// Warm runs, by pid: the writing end of their input, the reading end of what they report, and who
  /// waits for the end of the run they have going.
  private let warmRuns = Mutex<[Int32: WarmRun]>([:])
  private let clock: RealtimeClock

  private struct WarmRun {
    var input: Int32
    var reports: Int32
    var read: [UInt8] = []
    var finished: (@Sendable (Int32) -> Void)?
  }
  private let exits: SignalDescriptor

  public init(clock: RealtimeClock) throws(LaunchFailure) {
    self.clock = clock
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
    var options = Subprocess.Options(
      executable: request.executable, arguments: request.arguments, environment: request.environment,
      standardInput: request.awaitsHandOver ? .pipe : .null, standardOutput: .standardError, standardError: .inherit,
      endsWithFlow: false)
    do throws(SubprocessError) {
      let reports = request.awaitsHandOver ? try Subprocess.pipe() : nil
      if let reports { options.descriptors = [3: reports.write] }
      defer { if let reports { close(reports.write) } }
      let child: Subprocess
      do throws(SubprocessError) {
        // Registered under the spawn's lock, so that however early the child ends, the reaping finds it.
        child = try Subprocess.spawn(options) { pid in children.withLock { $0[pid] = ended } }
      } catch {
        if let reports { close(reports.read) }
        throw error
      }
      if let reports {
        let pid = child.pid
        warmRuns.withLock { $0[pid] = WarmRun(input: child.standardInput, reports: reports.read) }
        clock.watch(reports.read) { [weak self] in self?.readReports(of: pid) }
      }
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

  public func handOver(_ pid: Int32, _ bytes: [UInt8], finished: @escaping @Sendable (Int32) -> Void) -> Bool {
    guard
      let input = warmRuns.withLock({ runs -> Int32? in
        guard runs[pid]?.input ?? -1 >= 0 else { return nil }
        runs[pid]?.finished = finished
        return runs[pid]?.input
      })
    else { return false }
    // A run that is gone closes its end: EPIPE, not a SIGPIPE that would end the scheduler.
    let written = Subprocess.withoutPipeSignal {
      var written = 0
      while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
      }
      return true
    }
    if !written { warmRuns.withLock { $0[pid]?.finished = nil } }
    return written
  }

  public func retire(_ pid: Int32) {
    let input = warmRuns.withLock { runs -> Int32? in
      defer { runs[pid]?.input = -1 }
      return runs[pid]?.input
    }
    if let input, input >= 0 { close(input) }
  }

  /// Reads what the warm run `pid` reports: each run's end, a status and a newline. Its end of the pipe
  /// closes when it ends.
  private func readReports(of pid: Int32) {
    var chunk = [UInt8](repeating: 0, count: 256)
    guard let reports = warmRuns.withLock({ $0[pid]?.reports }) else { return }
    let count = chunk.withUnsafeMutableBytes { read(reports, $0.baseAddress, $0.count) }
    if count < 0, errno == EINTR || errno == EAGAIN { return }
    guard count > 0 else {
      clock.unwatch(reports)
      close(reports)
      let input = warmRuns.withLock { $0.removeValue(forKey: pid)?.input }
      if let input, input >= 0 { close(input) }
      return
    }
    var ended: [(Int32, @Sendable (Int32) -> Void)] = []
    warmRuns.withLock { runs in
      runs[pid]?.read += chunk.prefix(count)
      while let line = runs[pid]?.read.firstIndex(of: UInt8(ascii: "\n")), let run = runs[pid] {
        let status = Int32(String(decoding: run.read[..<line], as: UTF8.self)) ?? -1
        runs[pid]?.read.removeFirst(line + 1)
        if let finished = run.finished { ended.append((status, finished)) }
        runs[pid]?.finished = nil
      }
    }
    for (status, finished) in ended { finished(status) }
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
        ended.append((result == pid ? Termination(waitStatus: status) : .exited(-1), callback))
      }
      return ended
    }
    for (termination, callback) in ended { callback(termination) }
  }
}
