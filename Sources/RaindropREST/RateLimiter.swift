import Foundation
import RaindropModel

/// The client-side rate limiter: it mirrors the server's fixed window from the `x-ratelimit-*` headers and
/// holds requests back when the window is used up, so that normal use never meets a 429.
///
/// Raindrop allows 120 requests a minute in a fixed 60 s window that starts with the first request; every
/// response carries `x-ratelimit-limit`, `x-ratelimit-remaining` (documented as `RateLimit-Remaining`) and
/// `x-ratelimit-reset` (epoch seconds). Until a response has told it the limit, the limiter lets everything
/// through.
///
/// The estimate of what is left is "the lowest `remaining` the server reported in this window, minus the
/// requests still in flight". The server's count only grows within a window, so its lowest figure is its
/// latest; every request not in it is either in flight (subtracted) or answered (and then its own, lower figure
/// would be the lowest). So the estimate never exceeds the truth, whatever the order answers arrive in, and it
/// is short only by in-flight requests the server has already counted.
public actor RateLimiter {
  private let clock: any BackendClock
  private let margin: TimeInterval

  /// The window size, once a response has said it.
  public private(set) var limit: Int?
  /// The end of the current window, once a response in it has said it; nil between the end of one window and
  /// the first answer in the next.
  public private(set) var resetAt: Date?
  /// The lowest `remaining` reported in the current window.
  private var serverRemaining: Int?
  /// The end of the last window that is over, so late answers from it are not taken for a new one.
  private var finishedReset: Date?
  /// Set by a 429: nothing goes out before this.
  public private(set) var blockedUntil: Date?
  private var inFlight = 0
  /// Requests waiting for an answer to arrive (see ``acquire()``).
  private var answerWaiters: [CheckedContinuation<Void, Never>] = []

  public init(clock: any BackendClock, margin: Duration = .milliseconds(250)) {
    self.clock = clock
    self.margin = margin.seconds
  }

  /// Requests that may still go out in this window, by the estimate above; nil when unknown (no limit).
  public var estimatedRemaining: Int? {
    guard let limit else { return nil }
    return (serverRemaining ?? limit) - inFlight
  }

  /// Waits until a request may go out, and counts it as in flight.
  public func acquire() async throws {
    while true {
      let now = clock.now
      if let blocked = blockedUntil {
        if now < blocked {
          try await clock.sleep(until: blocked)
          continue
        }
        blockedUntil = nil
      }
      if let reset = resetAt, now >= reset.addingTimeInterval(margin) {
        // The window is over. Until an answer describes the next one, assume a full window that the requests
        // still in flight may land in.
        finishedReset = reset
        resetAt = nil
        serverRemaining = nil
      }
      if let left = estimatedRemaining, left <= 0 {
        if inFlight > 0 {
          // Answers on their way may show that the server counted fewer: wait for the next one first, rather
          // than for the whole window.
          await withCheckedContinuation { answerWaiters.append($0) }
        } else if let reset = resetAt {
          try await clock.sleep(until: reset.addingTimeInterval(margin))
        }
        continue
      }
      inFlight += 1
      return
    }
  }

  /// Takes in the headers of the answer to a request that ``acquire()`` let out.
  public func record(_ headers: [String: String]) {
    inFlight = max(inFlight - 1, 0)
    defer { wakeWaiters() }
    if let value = Self.integer(headers, "x-ratelimit-limit", "ratelimit-limit") { limit = value }
    guard let remaining = Self.integer(headers, "x-ratelimit-remaining", "ratelimit-remaining"),
      let resetValue = Self.integer(headers, "x-ratelimit-reset", "ratelimit-reset")
    else { return }
    let reset = Self.resetDate(resetValue, now: clock.now)
    if let finished = finishedReset, reset.timeIntervalSince(finished) < 1 { return }  // a late answer from an old window
    if let current = resetAt, abs(current.timeIntervalSince(reset)) < 1 {
      serverRemaining = min(serverRemaining ?? remaining, remaining)
    } else if let current = resetAt, reset < current {
      return
    } else {
      if let current = resetAt { finishedReset = current }
      resetAt = reset
      serverRemaining = remaining
    }
  }

  /// A request came back without an answer (it may or may not have been counted).
  public func recordNoAnswer() {
    inFlight = max(inFlight - 1, 0)
    wakeWaiters()
  }

  private func wakeWaiters() {
    let waiting = answerWaiters
    answerWaiters = []
    for waiter in waiting { waiter.resume() }
  }

  /// A 429: hold every request until `until`.
  public func block(until: Date) {
    blockedUntil = max(blockedUntil ?? until, until)
  }

  /// An epoch second, as Raindrop sends; a small number is a delay in seconds, as the IETF draft's
  /// `RateLimit-Reset` is.
  static func resetDate(_ value: Int, now: Date) -> Date {
    value > 1_000_000_000 ? Date(timeIntervalSince1970: TimeInterval(value)) : now.addingTimeInterval(TimeInterval(value))
  }

  private static func integer(_ headers: [String: String], _ names: String...) -> Int? {
    for name in names {
      if let text = headers[name]?.trimmingCharacters(in: .whitespaces), let value = Int(text) { return value }
    }
    return nil
  }
}
