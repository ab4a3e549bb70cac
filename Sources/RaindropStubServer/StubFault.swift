import Foundation

/// A failure the stand-in can be told to produce, to test the client's limiter and retries.
public enum StubFault: Sendable, Hashable, CustomStringConvertible {
  /// 429 with the rate-limit headers, and `Retry-After` when given. Not acted on.
  case rateLimited(retryAfter: Int?)
  /// 429 with these headers over the usual ones, as text: for a server that says something odd
  /// (`Retry-After: 9223372036854775807`). Not acted on.
  case rateLimitedSaying([String: String])
  /// Answers normally, with these headers over the rate-limit ones (`x-ratelimit-remaining: 0` with a reset
  /// years away).
  case answerSaying([String: String])
  /// 500 without acting on the request.
  case serverError
  /// Acts on the request, then answers 500: the answer is lost though the change happened.
  case serverErrorAfterHandling
  /// Drops the connection without acting or answering.
  case resetConnection
  /// Acts on the request, then drops the connection without answering.
  case resetAfterHandling
  /// Answers normally after this long (real time, for client timeouts).
  case slow(Duration)
  /// Acts on the request, then answers 200 with truncated JSON.
  case malformedJSON
  /// 401 `Incorrect access_token`, whatever the token.
  case unauthorized
  /// 400 without acting: a refusal the client does not retry.
  case badRequest

  public var description: String {
    switch self {
    case .rateLimited, .rateLimitedSaying: "429"
    case .answerSaying: "odd headers"
    case .serverError: "500"
    case .serverErrorAfterHandling: "500 after handling"
    case .resetConnection: "reset"
    case .resetAfterHandling: "reset after handling"
    case .slow: "slow"
    case .malformedJSON: "malformed JSON"
    case .unauthorized: "401"
    case .badRequest: "400"
    }
  }

  /// Whether the request's effect happens despite the fault.
  var handlesRequest: Bool {
    switch self {
    case .serverErrorAfterHandling, .resetAfterHandling, .slow, .malformedJSON, .answerSaying: true
    case .rateLimited, .rateLimitedSaying, .serverError, .resetConnection, .unauthorized, .badRequest: false
    }
  }
}

/// The server's rate-limit window: `limit` requests per fixed window of `seconds`, starting with the first
/// request (reference §6). Raindrop's is 120 per 60 s; tests scale it down.
public struct RateWindow: Sendable, Hashable {
  public var limit: Int
  public var seconds: Int

  public init(limit: Int, seconds: Int) {
    self.limit = limit
    self.seconds = seconds
  }

  public static let raindrop = RateWindow(limit: 120, seconds: 60)
}

/// A small deterministic random source (SplitMix64), so a fault plan replays the same way from a seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
