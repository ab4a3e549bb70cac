import FoundationEssentials
import Glibc
import Synchronization

/// SIGHUP, SIGTERM and SIGINT, read from a `signalfd` in the scheduler's poll (``RealtimeClock``).
///
/// They are blocked when this is made and queue until read, so one that comes during start-up is not
/// lost but handed to ``start(_:)``'s handler when the scheduler first waits. Dispatch signal sources
/// would do as well but start Dispatch's thread pool, whose monitor then wakes the process every second.
public final class ServiceSignals: SignalSource, Sendable {
  private let signals: SignalDescriptor
  private let received = Mutex<(@Sendable (Int32) -> Void)?>(nil)

  public init(clock: RealtimeClock) throws(LaunchFailure) {
    signals = try SignalDescriptor([SIGHUP, SIGTERM, SIGINT])
    clock.watch(signals.descriptor) { [weak self] in
      guard let self else { return }
      let received = self.received.withLock { $0 }
      for number in signals.take() { received?(number) }
    }
  }

  deinit { close(signals.descriptor) }

  public func start(_ received: @escaping @Sendable (Int32) -> Void) {
    self.received.withLock { $0 = received }
  }
}
