import Dispatch
import FlowSystem
import FoundationEssentials
import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM cancel a run cleanly (SPEC §5): the running step is cancelled, nothing
/// further is done, and flow exits with the cancelled status (3), the run recorded as cancelled.
/// SIGTERM is how `systemctl stop`, `kill`, a container runtime and the scheduler stop a run, so it
/// is treated as Ctrl-C is rather than killing the process with the run half recorded.
///
/// Cancellation is cooperative, so a step in flight (an HTTP request) ends properly and the run reports
/// where it stopped. A prompt blocked reading the terminal cannot notice cancellation, so while one is
/// waiting, and on a second Ctrl-C, flow exits at once; and a run that has not wound down within a second
/// of the first is left behind the same way, so that Ctrl-C is never kept waiting. A second SIGTERM
/// changes nothing: a service
/// manager escalates with SIGKILL, and the scheduler and systemd may both send SIGTERM to one run.
///
/// Work that leaves nothing to put right — reading and checking files, drawing the card, `show`,
/// `validate`, `import` before it writes, `export` before it writes — runs in ``endingAtOnce(_:)``: a
/// signal there ends the process at once with the cancelled status (3), however long the work is and
/// whether or not it ever looks at cancellation (issue 16: a CPU-bound check was deaf to both signals).
///
/// The service thread takes the signals (``serve(exitStatus:saying:)``, ServiceThread), while the main thread runs the command
/// (MainThreadExecutor): both are blocked in every thread from the start (``block()``), so one sent while
/// flow was starting, or already pending then (sent while its parent had it blocked), waits for it and
/// counts as received; and one that comes while a step holds the main thread (a CPU-bound check, a
/// prompt blocked reading the terminal) is taken all the same. Dispatch signal sources did this before,
/// with a handler installed early for the moments before they listened: they cost every command a
/// Dispatch worker for their handlers and two signalfds on Dispatch's event thread, and a one-step run
/// 1.4 ms of its wall time (8.9 ms against 7.5, interleaved).
public enum Interrupts {
  private static let waitingForInput = Atomic<Bool>(false)
  /// How many ``endingAtOnce(_:)`` scopes are open.
  private static let atOnce = Atomic<Int>(0)
  private static let interrupted = Atomic<Bool>(false)
  private static let finished = Atomic<Bool>(false)
  /// The command's task once it runs, and a signal that came before it did.
  private static let command = Mutex<(task: Task<Int32, Never>?, early: Int32)>((nil, 0))
  /// How long a cancelled run has to wind down before flow exits without it: a step that does not check
  /// for cancellation, or freeing gigabytes of values, once kept Ctrl-C waiting for 40 seconds.
  static let grace: DispatchTimeInterval = .milliseconds(900)
  private static let beforeExit = Mutex<[@Sendable () -> Void]>([])
  /// What an exit at once says and the status it exits with, from ``serve(exitStatus:saying:)``.
  private static let farewell = Mutex<(status: Int32, say: @Sendable () -> Void)>((3, {}))

  /// Work that must be done even when Ctrl-C ends the process at once: run history records the run as
  /// cancelled rather than leaving it to look interrupted.
  public static func whenExitingAtOnce(_ body: @escaping @Sendable () -> Void) {
    beforeExit.withLock { $0.append(body) }
  }

  /// Marks the time spent asking and blocked reading a line from the terminal; nil when Ctrl-C came
  /// first.
  ///
  /// The handler sets `interrupted` and then reads `waitingForInput`; this sets `waitingForInput` and
  /// then reads `interrupted`. With sequentially consistent atomics at least one of the two sees the
  /// other, so a Ctrl-C is never lost between asking and reading.
  public static func whileReadingInput<T>(_ body: () -> T?) -> T? {
    waitingForInput.store(true, ordering: .sequentiallyConsistent)
    defer { waitingForInput.store(false, ordering: .sequentiallyConsistent) }
    if interrupted.load(ordering: .sequentiallyConsistent) { return nil }
    return body()
  }

  /// Runs `body`, which holds nothing that must be finished or undone, with Ctrl-C and SIGTERM ending
  /// the process at once (exit the cancelled status (3)); at once too when one came before.
  ///
  /// The same handshake as ``whileReadingInput(_:)``: this opens the scope and then reads
  /// `interrupted`; the handler sets `interrupted` and then reads the scope, so no signal is lost.
  public static func endingAtOnce<T>(_ body: () throws -> T) rethrows -> T {
    atOnce.add(1, ordering: .sequentiallyConsistent)
    defer { atOnce.subtract(1, ordering: .sequentiallyConsistent) }
    if interrupted.load(ordering: .sequentiallyConsistent) { exitNow() }
    return try body()
  }

  /// Runs `body`, which must not be cut short (writing a file or a key), inside an
  /// ``endingAtOnce(_:)`` scope: a signal meanwhile only cancels, and the command finishes.
  public static func finishing<T>(_ body: () throws -> T) rethrows -> T {
    atOnce.subtract(1, ordering: .sequentiallyConsistent)
    defer { atOnce.add(1, ordering: .sequentiallyConsistent) }
    return try body()
  }

  /// Blocks Ctrl-C and SIGTERM, on the main thread before any other thread starts, which then serves
  /// them (``serve(exitStatus:saying:)``): every thread flow starts inherits the mask (Dispatch's workers block
  /// both anyway), so a signal stays pending until the main thread takes it, however early it came.
  /// Children start with an empty mask (SpawnCommandRunner, ServerProcess).
  public static func block() {
    var signals = Self.signals
    pthread_sigmask(SIG_BLOCK, &signals, nil)
  }

  private static var signals: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    return set
  }

  /// Starts the process's service thread, which takes each Ctrl-C and SIGTERM as it comes and cancels
  /// the command with it; after ``block()``, so that it is the one thread to take them. The main thread
  /// runs the command (MainThreadExecutor), whose task ends the process. An exit at once calls `say`
  /// (the command line prints "cancelled") and exits with `exitStatus`.
  public static func serve(exitStatus: Int32, saying say: @escaping @Sendable () -> Void) {
    farewell.withLock { $0 = (exitStatus, say) }
    guard ServiceThread.start(signals: signals, received: { received($0) }) == nil else { return }
    // Only when the system is out of threads: the signals then do what they do by default, end flow.
    var signals = Self.signals
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Runs `operation` with Ctrl-C and SIGTERM cancelling it.
  public static func cancellingOnInterrupt(_ operation: @escaping @Sendable () async -> Int32) async -> Int32 {
    let task = Task { await operation() }
    let early = command.withLock { command in
      command.task = task
      defer { command.early = 0 }
      return command.early
    }
    if early != 0 { received(early) }
    let status = await task.value
    finished.store(true, ordering: .sequentiallyConsistent)
    return status
  }

  private static func received(_ number: Int32) {
    // Before the command's task exists, the signal waits for it (``cancellingOnInterrupt(_:)``).
    let task = command.withLock { command -> Task<Int32, Never>? in
      if command.task == nil { command.early = number }
      return command.task
    }
    guard let task else { return }
    let again = interrupted.exchange(true, ordering: .sequentiallyConsistent)
    if waitingForInput.load(ordering: .sequentiallyConsistent) || atOnce.load(ordering: .sequentiallyConsistent) > 0
      || (again && number == SIGINT)
    {
      exitNow()
    }
    task.cancel()
    if !again {
      DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
        if !finished.load(ordering: .sequentiallyConsistent) { exitNow() }
      }
    }
  }

  private static func exitNow() -> Never {
    TerminalEcho.restore()
    let (status, say) = farewell.withLock { $0 }
    say()
    // A program flow started would outlive it: every process group still registered is ended first.
    Subprocess.endAll()
    for body in beforeExit.withLock({ $0 }) { body() }
    exit(status)
  }
}
