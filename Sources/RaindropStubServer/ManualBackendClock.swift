import Foundation
import RaindropModel

/// A clock that jumps instead of waiting: `sleep(until:)` moves time forward to the deadline (if it is later)
/// and returns at once. Sleepers waiting for the same instant move it once, so a waiting crowd does not
/// multiply time. For tests and the benchmark.
public final class ManualBackendClock: BackendClock, @unchecked Sendable {
  // A lock rather than an actor: `now` must be readable synchronously. It guards `current` and `deadlines`.
  private let lock = NSLock()
  private var current: Date
  private var deadlines: [Date] = []

  public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {  // 2026-01-01T00:00:00Z
    current = start
  }

  public var now: Date { lock.withLock { current } }

  public func sleep(until deadline: Date) async throws {
    try Task.checkCancellation()
    lock.withLock {
      deadlines.append(deadline)
      current = max(current, deadline)
    }
    await Task.yield()
  }

  /// Moves time forward without anyone sleeping.
  public func advance(by seconds: TimeInterval) {
    lock.withLock { current = current.addingTimeInterval(seconds) }
  }

  /// How many times someone slept.
  public var sleepCount: Int { lock.withLock { deadlines.count } }
}
