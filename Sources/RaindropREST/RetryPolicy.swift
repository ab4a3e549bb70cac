import FoundationEssentials

/// How persistent the client is: retries for 5xx and lost connections, waits for 429s, and timeouts.
public struct RetryPolicy: Sendable, Hashable {
  /// Tries per request when the server fails (5xx), the connection fails, or the answer is unreadable; 1 means
  /// no retry.
  public var maxAttempts: Int
  /// The first backoff; each later one doubles, up to ``maximumDelay``.
  public var baseDelay: Duration
  public var maximumDelay: Duration
  /// How many 429s one request may wait out before giving up.
  public var maxRateLimitWaits: Int
  /// Extra wait after the server's reset second, so that a request does not arrive a hair early.
  public var resetMargin: Duration
  /// The wait on a 429 that names neither `Retry-After` nor a reset (reference §6: 60 s).
  public var defaultRateLimitWait: Duration
  /// How long a create may be told apart from an older save of the same link: a bookmark found by the exists
  /// check counts as this request's own if it was created within this long of the request.
  public var createMatchTolerance: Duration
  /// Per request.
  public var requestTimeout: Duration

  public init(
    maxAttempts: Int = 5,
    baseDelay: Duration = .milliseconds(500),
    maximumDelay: Duration = .seconds(30),
    maxRateLimitWaits: Int = 5,
    resetMargin: Duration = .milliseconds(250),
    defaultRateLimitWait: Duration = .seconds(60),
    createMatchTolerance: Duration = .seconds(300),
    requestTimeout: Duration = .seconds(30)
  ) {
    self.maxAttempts = max(maxAttempts, 1)
    self.baseDelay = baseDelay
    self.maximumDelay = maximumDelay
    self.maxRateLimitWaits = maxRateLimitWaits
    self.resetMargin = resetMargin
    self.defaultRateLimitWait = defaultRateLimitWait
    self.createMatchTolerance = createMatchTolerance
    self.requestTimeout = requestTimeout
  }

  public static let `default` = RetryPolicy()

  /// The wait before retry number `retry` (1 for the first retry): base × 2^(retry-1), capped. No jitter: one
  /// person's CLI does not cause a thundering herd, and tests stay deterministic.
  public func backoff(beforeRetry retry: Int) -> Duration {
    let factor = 1 << min(max(retry - 1, 0), 20)
    return min(baseDelay * factor, maximumDelay)
  }
}
