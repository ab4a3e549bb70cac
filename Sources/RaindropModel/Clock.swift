import FoundationEssentials
import Synchronization

/// Time and sleeping for backends, injected so that tests never really wait.
///
/// Wall-clock time (not a monotonic clock), because Raindrop's rate-limit reset is an epoch second.
public protocol BackendClock: Sendable {
  var now: Date { get }
  /// Waits until `deadline`; throws `CancellationError` when the task is cancelled.
  func sleep(until deadline: Date) async throws
}

extension BackendClock {
  /// Waits `duration` from now.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: now.addingTimeInterval(duration.seconds))
  }
}

extension Duration {
  /// The duration in seconds, as a `TimeInterval`.
  public var seconds: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// The real clock.
public struct SystemBackendClock: BackendClock {
  /// A day, in milliseconds: no wait a backend makes is longer.
  static let longestSleep = 86_400_000

  public init() {}
  public var now: Date { Date() }
  public func sleep(until deadline: Date) async throws {
    let interval = deadline.timeIntervalSinceNow
    // Bounded before converting: a deadline from a server's header can be any size, and converting a
    // Double beyond Int's range traps. Callers cap their waits; this keeps a missed cap from crashing.
    let milliseconds = min((interval * 1000).rounded(.up), Double(Self.longestSleep))
    if milliseconds > 0 { try await Task.sleep(for: .milliseconds(Int(milliseconds))) }
  }
}
