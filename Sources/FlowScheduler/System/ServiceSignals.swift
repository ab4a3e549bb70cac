import Foundation

/// SIGHUP, SIGTERM and SIGINT, read from a `signalfd` in the scheduler's poll (``RealtimeClock``).
///
/// They are blocked when this is made and queue until read, so one that comes during start-up is not
/// lost but handed to ``start(_:)``'s handler when the scheduler first waits. Dispatch signal sources
/// would do as well but start Dispatch's thread pool, whose monitor then wakes the process every second.
public final class ServiceSignals: SignalSource, @unchecked Sendable {
  private let signals: SignalDescriptor
  private let lock = NSLock()
  private var received: (@Sendable (Int32) -> Void)?

  public init(clock: RealtimeClock) throws(LaunchFailure) {
    signals = try SignalDescriptor([SIGHUP, SIGTERM, SIGINT])
    clock.watch(signals.descriptor) { [weak self] in
      guard let self else { return }
      let received = lock.withLock { self.received }
      for number in signals.take() { received?(number) }
    }
  }

  deinit { close(signals.descriptor) }

  public func start(_ received: @escaping @Sendable (Int32) -> Void) {
    lock.withLock { self.received = received }
  }
}
