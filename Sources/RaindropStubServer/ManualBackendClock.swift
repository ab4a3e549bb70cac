import Foundation
import RaindropModel
import Synchronization

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
