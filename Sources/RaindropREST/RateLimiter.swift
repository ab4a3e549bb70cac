import FlowDiagnostics
import FoundationEssentials
import RaindropModel

/// The client-side rate limiter: it mirrors the server's fixed window from the `x-ratelimit-*` headers and
/// holds requests back when the window is used up, so that normal use never meets a 429.
///
/// Raindrop allows 120 requests a minute in a fixed 60 s window that starts with the first request; every
/// response carries `x-ratelimit-limit`, `x-ratelimit-remaining` (documented as `RateLimit-Remaining`) and
/// `x-ratelimit-reset` (epoch seconds). Until a response has told it the limit, the limiter lets everything
/// through.
///
/// The estimate of what is left is the lowest of the server's `remaining` figures in this window, each less the
/// requests lost without an answer that it may not include, minus the requests still in flight. The server's
/// count only grows within a window, so every request missing from a figure is in flight (subtracted), lost
/// (subtracted unless its loss was seen before the figure's request went out, when the server must have counted
/// it first) or answered with a lower figure of its own. So the estimate never exceeds the truth, whatever the
/// order answers arrive in; it is short only by requests the server has already counted.
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
  /// Requests let out so far; each gets this number as its ticket.
  private var admitted = 0
  /// Requests lost without an answer since shortly before the last reset: when, and how many requests had
  /// been let out when the loss was seen.
  private var unanswered: [(time: Date, seenAfter: Int)] = []
  /// The reset header as the server sent it, for the error when its wait is too long.
  private var resetSaid = "x-ratelimit-reset"
  /// The longest the limiter waits for a window (``RaindropError/maximumRateLimitWait``).
  private let maximumWait: TimeInterval

  /// A wait longer than ``RaindropError/maximumRateLimitWait``: the request fails rather than hang, in the
  /// words of the header that asked for it.
  public struct WaitTooLong: Error {
    public let said: String
  }

  /// Requests waiting for an answer to arrive (see ``acquire()``).
  private var answerWaiters: [CheckedContinuation<Void, Never>] = []

  public init(
    clock: any BackendClock, margin: Duration = .milliseconds(250),
    maximumWait: Duration = RaindropError.maximumRateLimitWait
  ) {
    self.clock = clock
    self.margin = margin.seconds
    self.maximumWait = maximumWait.seconds
  }

  /// Sleeps until `deadline` unless it is further off than the cap; the sleep itself is cancellable.
  private func wait(until deadline: Date, said: String) async throws {
    guard deadline.timeIntervalSince(clock.now) <= maximumWait else { throw WaitTooLong(said: said) }
    try await clock.sleep(until: deadline)
  }

  /// Requests that may still go out in this window, by the estimate above; nil when unknown (no limit).
  public var estimatedRemaining: Int? {
    guard let limit else { return nil }
    return (serverRemaining ?? limit) - inFlight
  }

  /// Waits until a request may go out, counts it as in flight, and returns its ticket for ``record(_:ticket:)``.
  @discardableResult
  public func acquire() async throws -> Int {
    while true {
      let now = clock.now
      if let blocked = blockedUntil {
        if now < blocked {
          try await wait(until: blocked, said: "Retry-After")
          continue
        }
        blockedUntil = nil
      }
      if let reset = resetAt, now >= reset.addingTimeInterval(margin) {
        // The window is over. Until an answer describes the next one, assume a full window that the requests
        // still in flight may land in, and so may those lost close to the reset (they may have arrived after
        // it).
        finishedReset = reset
        resetAt = nil
        unanswered.removeAll { $0.time < reset.addingTimeInterval(-1) }
        serverRemaining = unanswered.isEmpty ? nil : limit.map { $0 - unanswered.count }
      }
      if let left = estimatedRemaining, left <= 0 {
        if inFlight > 0 {
          // Answers on their way may show that the server counted fewer: wait for the next one first, rather
          // than for the whole window.
          await withCheckedContinuation { answerWaiters.append($0) }
        } else if let reset = resetAt {
          try await wait(until: reset.addingTimeInterval(margin), said: resetSaid)
        }
        continue
      }
      inFlight += 1
      admitted += 1
      return admitted
    }
  }

  /// Takes in the headers of the answer to the request with this ticket.
  public func record(_ headers: [String: String], ticket: Int) {
    inFlight = max(inFlight - 1, 0)
    defer { wakeWaiters() }
    if let value = Self.integer(headers, "x-ratelimit-limit", "ratelimit-limit") { limit = value }
    guard let remaining = Self.integer(headers, "x-ratelimit-remaining", "ratelimit-remaining"),
      let resetValue = Self.integer(headers, "x-ratelimit-reset", "ratelimit-reset")
    else { return }
    let reset = Self.resetDate(resetValue, now: clock.now)
    resetSaid = "x-ratelimit-reset: \(resetValue)"
    // A late answer from an old window.
    if let finished = finishedReset, reset.timeIntervalSince(finished) < 1 { return }
    // Losses seen before this request went out were counted before it, so they are in the figure; later ones
    // may not be.
    let figure = { (lost: [(time: Date, seenAfter: Int)]) in remaining - lost.filter { $0.seenAfter >= ticket }.count }
    if let current = resetAt, abs(current.timeIntervalSince(reset)) < 1 {
      serverRemaining = min(serverRemaining ?? remaining, figure(unanswered))
    } else if let current = resetAt, reset < current {
      return
    } else {
      // A new window. Requests lost near the old reset may have landed in it: only those count here.
      let previous = resetAt ?? finishedReset
      if let current = resetAt { finishedReset = current }
      unanswered.removeAll { $0.time < (previous?.addingTimeInterval(-1) ?? .distantPast) }
      resetAt = reset
      serverRemaining = figure(unanswered)
    }
  }

  /// A request came back without an answer. The server may well have counted it (a connection reset after
  /// the request arrived), and no later figure will show it, so it is counted here.
  public func recordNoAnswer() {
    inFlight = max(inFlight - 1, 0)
    if let limit {
      serverRemaining = (serverRemaining ?? limit) - 1
      unanswered.append((clock.now, admitted))
    }
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
    value > 1_000_000_000
      ? Date(timeIntervalSince1970: TimeInterval(value)) : now.addingTimeInterval(TimeInterval(value))
  }

  private static func integer(_ headers: [String: String], _ names: String...) -> Int? {
    for name in names {
      if let text = headers[name]?.trimmingWhitespace(), let value = Int(text) { return value }
    }
    return nil
  }
}
