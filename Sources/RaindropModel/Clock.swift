import Foundation
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

/// A clock that jumps instead of waiting: `sleep(until:)` moves time forward to the deadline (if it is later)
/// and returns at once. Sleepers waiting for the same instant move it once, so a waiting crowd does not
/// multiply time. For tests and the benchmark.
public final class ManualBackendClock: BackendClock, Sendable {
  // A lock rather than an actor: `now` must be readable synchronously.
  private let state: Mutex<(current: Date, deadlines: [Date])>

  public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {  // 2026-01-01T00:00:00Z
    state = Mutex((start, []))
  }

  public var now: Date { state.withLock { $0.current } }

  public func sleep(until deadline: Date) async throws {
    try Task.checkCancellation()
    state.withLock {
      $0.deadlines.append(deadline)
      $0.current = max($0.current, deadline)
    }
    await Task.yield()
  }

  /// Moves time forward without anyone sleeping.
  public func advance(by seconds: TimeInterval) {
    state.withLock { $0.current = $0.current.addingTimeInterval(seconds) }
  }

  /// How many times someone slept.
  public var sleepCount: Int { state.withLock { $0.deadlines.count } }
}
