import Foundation
import RaindropModel

/// The client-side rate limiter: it mirrors the server's fixed window from the `x-ratelimit-*` headers and
/// holds requests back when the window is used up, so that normal use never meets a 429.
///
/// Raindrop allows 120 requests a minute in a fixed 60 s window that starts with the first request; every
/// response carries `x-ratelimit-limit`, `x-ratelimit-remaining` (documented as `RateLimit-Remaining`) and
/// `x-ratelimit-reset` (epoch seconds). Until a response has told it the limit, the limiter lets everything
/// through.
public actor RateLimiter {
  private let clock: any BackendClock
  private let margin: TimeInterval

  /// What the server last said, adjusted for requests sent since.
  public private(set) var limit: Int?
  public private(set) var remaining: Int?
  public private(set) var resetAt: Date?
  /// Set by a 429: nothing goes out before this.
  public private(set) var blockedUntil: Date?
  private var inFlight = 0

  public init(clock: any BackendClock, margin: Duration = .milliseconds(250)) {
    self.clock = clock
    self.margin = margin.seconds
  }

  /// Waits until a request may go out, and counts it.
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
        // The window is over; the next response will tell the new one. Until then assume a full window.
        remaining = limit
        resetAt = nil
      }
      if let left = remaining, left <= 0 {
        guard let reset = resetAt else {
          // Used up with no known reset (a window started by requests whose answers have not come back): wait
          // for the answers rather than guess.
          if inFlight == 0 {
            remaining = limit
          } else {
            try await Task.sleep(for: .milliseconds(5))
          }
          continue
        }
        try await clock.sleep(until: reset.addingTimeInterval(margin))
        continue
      }
      if let left = remaining { remaining = left - 1 }
      inFlight += 1
      return
    }
  }

  /// Takes in the headers of a response to a request that ``acquire()`` let out.
  public func record(_ headers: [String: String]) {
    inFlight = max(inFlight - 1, 0)
    let now = clock.now
    if let value = Self.integer(headers, "x-ratelimit-limit", "ratelimit-limit") { limit = value }
    guard let serverRemaining = Self.integer(headers, "x-ratelimit-remaining", "ratelimit-remaining"),
      let resetValue = Self.integer(headers, "x-ratelimit-reset", "ratelimit-reset")
    else { return }
    // An epoch second, as Raindrop sends; a small number is a delay in seconds, as the IETF draft's header is.
    let reset =
      resetValue > 1_000_000_000
      ? Date(timeIntervalSince1970: TimeInterval(resetValue)) : now.addingTimeInterval(TimeInterval(resetValue))
    if let known = resetAt, abs(known.timeIntervalSince(reset)) < 1 {
      // The same window: requests may have gone out since this one was counted, so keep the lower figure.
      remaining = min(remaining ?? serverRemaining, serverRemaining)
    } else if resetAt == nil || reset > (resetAt ?? reset) {
      // A new window: the server counted this request; the others still in flight will count too.
      resetAt = reset
      remaining = max(serverRemaining - inFlight, 0)
    }
  }

  /// A request came back without an answer (it may or may not have been counted).
  public func recordNoAnswer() {
    inFlight = max(inFlight - 1, 0)
  }

  /// A 429: hold every request until `until`.
  public func block(until: Date) {
    blockedUntil = max(blockedUntil ?? until, until)
    remaining = 0
  }

  private static func integer(_ headers: [String: String], _ names: String...) -> Int? {
    for name in names {
      if let text = headers[name]?.trimmingCharacters(in: .whitespaces), let value = Int(text) { return value }
    }
    return nil
  }
}
