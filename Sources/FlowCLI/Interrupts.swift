import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM cancel a run cleanly (SPEC §5): the running step is cancelled, nothing
/// further is done, and flow exits with ``ExitStatus/cancelled``, the run recorded as cancelled.
/// SIGTERM is how `systemctl stop`, `kill`, a container runtime and the scheduler stop a run, so it
/// is treated as Ctrl-C is rather than killing the process with the run half recorded.
///
/// Cancellation is cooperative, so a step in flight (an HTTP request) ends properly and the run reports
/// where it stopped. A prompt blocked reading the terminal cannot notice cancellation, so while one is
/// waiting, and on a second Ctrl-C, flow exits at once; and a run that has not wound down within a second
/// of the first is left behind the same way, so that Ctrl-C is never kept waiting. A second SIGTERM changes nothing: a service
/// manager escalates with SIGKILL, and the scheduler and systemd may both send SIGTERM to one run.
enum Interrupts {
  private static let waitingForInput = Atomic<Bool>(false)
  private static let interrupted = Atomic<Bool>(false)
  private static let finished = Atomic<Bool>(false)
  /// How long a cancelled run has to wind down before flow exits without it: a step that does not check
  /// for cancellation, or freeing gigabytes of values, once kept Ctrl-C waiting for 40 seconds.
  static let grace: DispatchTimeInterval = .milliseconds(900)
  private static let beforeExit = Mutex<[@Sendable () -> Void]>([])

  /// Work that must be done even when Ctrl-C ends the process at once: run history records the run as
  /// cancelled rather than leaving it to look interrupted.
  static func whenExitingAtOnce(_ body: @escaping @Sendable () -> Void) {
    beforeExit.withLock { $0.append(body) }
  }

  /// Marks the time spent asking and blocked reading a line from the terminal; nil when Ctrl-C came
  /// first.
  ///
  /// The handler sets `interrupted` and then reads `waitingForInput`; this sets `waitingForInput` and
  /// then reads `interrupted`. With sequentially consistent atomics at least one of the two sees the
  /// other, so a Ctrl-C is never lost between asking and reading.
  static func whileReadingInput<T>(_ body: () -> T?) -> T? {
    waitingForInput.store(true, ordering: .sequentiallyConsistent)
    defer { waitingForInput.store(false, ordering: .sequentiallyConsistent) }
    if interrupted.load(ordering: .sequentiallyConsistent) { return nil }
    return body()
  }

  /// Runs `operation` with Ctrl-C and SIGTERM cancelling it.
  static func cancellingOnInterrupt(console: any Console, _ operation: @escaping @Sendable () async -> Int32) async
    -> Int32
  {
    let task = Task { await operation() }
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { received(number, task: task, console: console) }
      source.resume()
      return source
    }
    defer { sources.forEach { $0.cancel() } }
    let status = await task.value
    finished.store(true, ordering: .sequentiallyConsistent)
    return status
  }

  private static func received(_ number: Int32, task: Task<Int32, Never>, console: any Console) {
    let again = interrupted.exchange(true, ordering: .sequentiallyConsistent)
    if waitingForInput.load(ordering: .sequentiallyConsistent) || (again && number == SIGINT) {
      exitAtOnce(console)
    }
    task.cancel()
    if !again {
      DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
        if !finished.load(ordering: .sequentiallyConsistent) { exitAtOnce(console) }
      }
    }
  }

  private static func exitAtOnce(_ console: any Console) -> Never {
    TerminalEcho.restore()
    console.write("\ncancelled\n", to: .error)
    for body in beforeExit.withLock({ $0 }) { body() }
    exit(ExitStatus.cancelled.rawValue)
  }
}
