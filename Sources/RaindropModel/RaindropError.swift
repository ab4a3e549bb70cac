/// Why a backend call failed. Both backends throw these, so the intents handle one type.
///
/// Messages never contain the token.
public enum RaindropError: Error, Sendable, Hashable, CustomStringConvertible {
  /// 401: no token, a wrong one, or an expired one. `reason` is the server's message ("Incorrect access_token").
  case notAuthenticated(reason: String)
  /// 404 with Raindrop's JSON body: the bookmark or collection does not exist.
  case notFound(Resource)
  /// 400: the server refused the request; `message` is its `errorMessage`.
  case invalidRequest(message: String)
  /// 413: too many (or no) ids in one bulk request.
  case tooLarge(message: String)
  /// 404 with an HTML body: the server does not know the route (a wrong `RAINDROP_API_URL`, say).
  case unknownEndpoint(method: String, path: String)
  /// 429 still, after waiting as long as the server asked, as many times as the policy allows.
  case rateLimited(retryAfterSeconds: Int?)
  /// The server asked for a wait longer than flow will make (``maximumRateLimitWait``); `said` is the header
  /// as it came ("Retry-After: 999999999"), so the person sees the server's own words.
  case waitTooLong(said: String)
  /// 5xx still, after the retries the policy allows.
  case serverError(status: Int, message: String)
  /// No answer: refused, reset, timed out. `description` comes from the transport.
  case network(String)
  /// The answer was not the JSON Raindrop sends.
  case malformedResponse(String)
  /// The local store failed (disk full, a corrupt file, a lock held for too long).
  case storage(String)
  /// A bulk update failed with `cause` after some of its requests had changed bookmarks.
  indirect case incomplete(BulkProgress, cause: RaindropError)

  /// The longest wait a rate limit may impose: `Retry-After` and `x-ratelimit-reset` come from the server,
  /// and a wrong or hostile one ("wait 292 billion years") must neither hang a run nor overflow a sleep.
  /// Raindrop's own window is 60 s; ten minutes is ten windows.
  public static let maximumRateLimitWait: Duration = .seconds(600)

  /// What could not be found.
  public enum Resource: Sendable, Hashable, CustomStringConvertible {
    case bookmark(id: Int)
    case collection(id: Int)
    /// Anything else, by the server's words.
    case other(String)

    public var description: String {
      switch self {
      case .bookmark(let id): "bookmark \(id)"
      case .collection(let id): "collection \(id)"
      case .other(let what): what
      }
    }
  }

  public var description: String {
    switch self {
    case .notAuthenticated: "Please log in to Raindrop.io first"
    case .notFound(let resource): "\(resource) not found"
    case .invalidRequest(let message): "Raindrop.io refused the request: \(message)"
    case .tooLarge(let message): "the request was too large for Raindrop.io: \(message)"
    case .unknownEndpoint(let method, let path): "the server does not know \(method) \(path); is the API URL right?"
    case .rateLimited(let seconds):
      "Raindrop.io's rate limit is still exceeded" + (seconds.map { " (retry after \($0) s)" } ?? "")
    case .waitTooLong(let said):
      "Raindrop.io asked flow to wait longer than \(Self.maximumRateLimitWait.components.seconds / 60) minutes (\(said))"
    case .serverError(let status, let message): "Raindrop.io failed (HTTP \(status)): \(message)"
    case .network(let message): "cannot reach Raindrop.io: \(message)"
    case .malformedResponse(let message): "Raindrop.io sent an answer flow cannot read: \(message)"
    case .storage(let message): "the local bookmark store failed: \(message)"
    case .incomplete(let progress, let cause): "\(cause); \(progress.description)"
    }
  }

  /// A stable code per case, for diagnostics and for the CLI's mapping to exit statuses.
  public var code: String {
    switch self {
    case .notAuthenticated: "raindrop.not-authenticated"
    case .notFound: "raindrop.not-found"
    case .invalidRequest: "raindrop.invalid-request"
    case .tooLarge: "raindrop.too-large"
    case .unknownEndpoint: "raindrop.unknown-endpoint"
    case .rateLimited: "raindrop.rate-limited"
    case .waitTooLong: "raindrop.wait-too-long"
    case .serverError: "raindrop.server-error"
    case .network: "raindrop.network"
    case .malformedResponse: "raindrop.malformed-response"
    case .storage: "raindrop.storage"
    case .incomplete(_, let cause): cause.code
    }
  }

  /// Whether the backend could not be reached or would not let us in (SPEC's "backend unreachable or
  /// unauthorised" exit class), as opposed to a request that failed on its own merits.
  public var isBackendUnavailable: Bool {
    switch self {
    case .notAuthenticated, .unknownEndpoint, .rateLimited, .waitTooLong, .serverError, .network, .malformedResponse,
      .storage:
      true
    case .notFound, .invalidRequest, .tooLarge: false
    case .incomplete(_, let cause): cause.isBackendUnavailable
    }
  }

  /// A hint for the person, where one helps.
  public var help: String? {
    switch self {
    case .notAuthenticated: "run 'flow auth login' or set RAINDROP_TOKEN; use '--backend local' to work offline"
    case .unknownEndpoint: "RAINDROP_API_URL should end in /rest/v1"
    case .rateLimited: "wait a minute and run again"
    case .waitTooLong: "run again later; the server's rate limit is not over"
    case .network: "check the connection, or use '--backend local' to work offline"
    case .incomplete(_, let cause): cause.help
    default: nil
    }
  }
}
