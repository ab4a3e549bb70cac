import Glibc
import Synchronization

/// The one thread a `flow` command starts beside the main thread, which runs the command
/// (MainThreadExecutor): it takes Ctrl-C and SIGTERM as they come (Interrupts decides what they do), and
/// once a second does the chores given to it (``everySecond(_:)``: run history's trace, written while a
/// run goes on so that one killed with SIGKILL still shows the steps it finished).
///
/// A thread of its own, because both must happen while a step holds the main thread: a CPU-bound check,
/// a long loop, a prompt blocked reading the terminal. Before, Dispatch did both (signal sources and a
/// delayed call), and starting it cost every command a manager thread and a worker or two.
///
/// It wakes for a signal, and once a second: a command that ends within its first second (most runs do)
/// never wakes it; one that lives for hours (`flow mcp`) wakes it once a second, as Dispatch's pool
/// monitor did. (The scheduler, which sleeps for hours, starts neither: `FlowCommand.start`.)
public final class ServiceThread: @unchecked Sendable {
  // Unchecked: `chores` is under its mutex; the rest is set once, before the thread starts.
  private let signals: sigset_t
  private let received: @Sendable (Int32) -> Void
  private let chores = Mutex<[@Sendable () -> Bool]>([])

  /// The process's service thread, once ``start(signals:received:)`` made it.
  public static var current: ServiceThread? { shared.withLock { $0 } }
  private static let shared = Mutex<ServiceThread?>(nil)

  private init(signals: sigset_t, received: @escaping @Sendable (Int32) -> Void) {
    self.signals = signals
    self.received = received
  }

  /// Starts the thread, which takes `signals` (blocked in every thread beforehand, so that only it takes
  /// them) and hands each to `received`, and does its chores once a second. Nil when the system is out
  /// of threads.
  @discardableResult
  public static func start(signals: sigset_t, received: @escaping @Sendable (Int32) -> Void) -> ServiceThread? {
    let service = ServiceThread(signals: signals, received: received)
    let box = Unmanaged.passRetained(service).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { box in
        guard let box else { return nil }
        Unmanaged<ServiceThread>.fromOpaque(box).takeRetainedValue().serve()
      }, box)
    guard started == 0 else {
      Unmanaged<ServiceThread>.fromOpaque(box).release()
      return nil
    }
    shared.withLock { $0 = service }
    return service
  }

  /// Does `chore` once a second, on this thread, until it returns false. Chores run while the command
  /// does, so each must be safe to run beside it.
  public func everySecond(_ chore: @escaping @Sendable () -> Bool) {
    chores.withLock { $0.append(chore) }
  }

  private func serve() -> Never {
    var signals = self.signals
    var second = timespec(tv_sec: 1, tv_nsec: 0)
    while true {
      let number = sigtimedwait(&signals, nil, &second)
      if number > 0 {
        received(number)
      } else if errno == EAGAIN {
        let due = chores.withLock { $0 }
        let ended = due.indices.filter { !due[$0]() }
        if !ended.isEmpty {
          chores.withLock { chores in
            // Only the chores that were done come off: one added meanwhile stays.
            for index in ended.reversed() { chores.remove(at: index) }
          }
        }
      }
    }
  }
}
