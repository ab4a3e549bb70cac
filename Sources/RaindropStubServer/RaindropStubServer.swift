import FlyingFox
import Foundation
import RaindropLocal
import RaindropModel

/// A loopback stand-in for api.raindrop.io: Raindrop's REST protocol over a ``LocalBackend``, for tests and the
/// benchmark (reference §10).
///
/// It listens on `127.0.0.1` at a port the system picks, checks the token before routing, sends the
/// `x-ratelimit-*` headers on every answer from a fixed window (429 with `Retry-After` when it is used up), and
/// answers with `Connection: close` (FlyingFox without it costs ~40 ms a request on keep-alive). Faults can be
/// switched on per test (``StubFault``), and it counts requests per endpoint.
public final class RaindropStubServer: Sendable {
  /// The store behind the server; tests may seed it directly.
  public let store: LocalBackend
  private let tokens: Set<String>
  private let state: StubState
  private let clock: any BackendClock
  private let server: HTTPServer
  private let runner = RunnerBox()

  /// - Parameters:
  ///   - tokens: bearer tokens accepted; others get 401 `Incorrect access_token`.
  ///   - rateLimit: the window; scale it down to exercise the client's limiter quickly.
  ///   - clock: the time the window runs on (share a ``ManualBackendClock`` with the client to never wait).
  public init(
    store: LocalBackend,
    tokens: Set<String> = ["test-token"],
    rateLimit: RateWindow = .raindrop,
    clock: any BackendClock = SystemBackendClock()
  ) throws {
    self.store = store
    self.tokens = tokens
    self.clock = clock
    let state = StubState(window: rateLimit, clock: clock)
    self.state = state
    let router = Router(store: store, tokens: tokens, state: state)
    server = HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: 0),
      timeout: 60,
      logger: .disabled,
      handler: ClosureHTTPHandler { request in await router.handle(request) }
    )
  }

  /// Starts listening and returns the base URL, `http://127.0.0.1:PORT/rest/v1`.
  public func start() async throws -> URL {
    let server = self.server
    let task = Task { try await server.run() }
    await runner.set(task)
    // FlyingFox's default is 5 s, which a test suite holding every cooperative thread can use up
    // before the server's task runs at all; this bounds only a failure.
    try await server.waitUntilListening(timeout: 120)
    guard case .ip4(_, let port)? = await server.listeningAddress,
      let url = URL(string: "http://127.0.0.1:\(port)/rest/v1")
    else { throw StubServerError.noAddress }
    return url
  }

  public func stop() async {
    await server.stop()
    if let task = await runner.take() { _ = await task.result }
  }

  // MARK: - Faults

  /// The next `times` requests (after the token check) get `fault`; with `endpoint` (keyed like
  /// ``requestCounts``), only requests to it, after letting `skipping` of them through.
  public func failNext(_ fault: StubFault, times: Int = 1, on endpoint: String? = nil, skipping: Int = 0) async {
    await state.enqueue(fault, times: times, on: endpoint, skipping: skipping)
  }

  /// From now on, each request gets one of `faults` with probability `rate`, drawn from a seeded generator.
  public func injectRandomFaults(rate: Double, from faults: [StubFault], seed: UInt64 = 42) async {
    await state.setRandom(rate: rate, faults: faults, seed: seed)
  }

  public func clearFaults() async { await state.clearFaults() }

  // MARK: - Counting

  /// Requests per endpoint, keyed like `PUT /raindrops/{collectionId}`.
  public var requestCounts: [String: Int] { get async { await state.counts } }
  public var totalRequests: Int { get async { await state.total } }
  /// 429s sent because the window was used up (not injected ones).
  public var rateLimitedResponses: Int { get async { await state.rateLimited } }
  /// Injected faults by kind.
  public var injectedFaults: [String: Int] { get async { await state.faultsInjected } }
  /// When the first and the last counted request arrived, on the server's clock.
  public var activeInterval: (first: Date, last: Date)? {
    get async {
      guard let first = await state.firstRequest, let last = await state.lastRequest else { return nil }
      return (first, last)
    }
  }

  public func resetCounts() async { await state.resetCounts() }
}

extension RaindropStubServer {
  /// Starts a stand-in over `store`, runs `body` with it and its base URL (for `RAINDROP_API_URL`), and stops it
  /// whether `body` succeeds or throws.
  public static func withRunning<T>(
    store: LocalBackend,
    tokens: Set<String> = ["test-token"],
    rateLimit: RateWindow = .raindrop,
    clock: any BackendClock = SystemBackendClock(),
    _ body: (RaindropStubServer, URL) async throws -> T
  ) async throws -> T {
    let server = try RaindropStubServer(store: store, tokens: tokens, rateLimit: rateLimit, clock: clock)
    let url = try await server.start()
    do {
      let result = try await body(server, url)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }
}

/// Why the stand-in could not start.
public enum StubServerError: Error, CustomStringConvertible {
  case noAddress
  public var description: String { "the stand-in server has no IPv4 address" }
}

/// Holds the server's run task.
private actor RunnerBox {
  private var task: Task<Void, any Error>?
  func set(_ task: Task<Void, any Error>) { self.task = task }
  func take() -> Task<Void, any Error>? {
    defer { task = nil }
    return task
  }
}

/// Answers by dropping the connection: FlyingFox closes a connection whose WebSocket handler throws before
/// anything is written, which is how the stand-in imitates a reset.
private struct DroppingHandler: WSHandler {
  struct Dropped: Error {}
  func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
    throw Dropped()
  }
}

/// A response before FlyingFox's types: status, headers, body.
struct StubAnswer {
  var status: Int
  var headers: [String: String] = ["Content-Type": "application/json; charset=utf-8"]
  var body: Data

  static func json(_ status: Int, _ object: [String: Any]) -> StubAnswer {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return StubAnswer(status: status, body: data)
  }
}

/// Routes Raindrop's REST paths onto the store.
struct Router: Sendable {
  let store: LocalBackend
  let tokens: Set<String>
  let state: StubState

  func handle(_ request: FlyingFox.HTTPRequest) async -> FlyingFox.HTTPResponse {
    let method = request.method.rawValue
    let segments = request.path.split(separator: "/").map(String.init)
    let route = Self.route(method: method, segments: segments)
    await state.count(route?.name ?? "\(method) (unknown)")

    // The token is checked before routing, so an unknown path without one is a 401 too (reference §2).
    let authorization = request.headers[.authorization] ?? ""
    let (rateHeaders, allowed) = await state.admit()
    if !authorization.hasPrefix("Bearer ") {
      return finish(
        .json(401, ["result": false, "status": 401, "errorMessage": "Unauthorized", "auth": false]), rateHeaders)
    }
    if !tokens.contains(String(authorization.dropFirst("Bearer ".count))) {
      return finish(
        .json(401, ["result": false, "status": 401, "errorMessage": "Incorrect access_token", "auth": false]),
        rateHeaders)
    }
    if !allowed {
      return finish(rateLimitedAnswer(retryAfter: await state.secondsToReset()), rateHeaders)
    }

    let fault = await state.nextFault(for: route?.name)
    if let fault { await state.noteFault(fault) }
    switch fault {
    case .rateLimited(let retryAfter)?:
      return finish(rateLimitedAnswer(retryAfter: retryAfter), rateHeaders)
    case .rateLimitedSaying(let said)?:
      return finish(rateLimitedAnswer(retryAfter: nil), rateHeaders.merging(said) { $1 })
    case .serverError?:
      return finish(.json(500, ["result": false, "status": 500, "errorMessage": "Injected server error"]), rateHeaders)
    case .resetConnection?:
      return FlyingFox.HTTPResponse(webSocket: DroppingHandler())
    case .badRequest?:
      return finish(.json(400, ["result": false, "status": 400, "errorMessage": "Injected bad request"]), rateHeaders)
    case .unauthorized?:
      return finish(
        .json(401, ["result": false, "status": 401, "errorMessage": "Incorrect access_token", "auth": false]),
        rateHeaders)
    default:
      break
    }

    let answer: StubAnswer
    if let route {
      let body = try? await request.bodyData
      answer = await respond(route, query: request.query, body: body ?? Data())
    } else {
      // Express's own 404 for an unknown route, in HTML (reference §2).
      answer = StubAnswer(
        status: 404, headers: ["Content-Type": "text/html; charset=utf-8"],
        body: Data("<!DOCTYPE html>\n<html><body><pre>Cannot \(method) \(request.path)</pre></body></html>\n".utf8)
      )
    }

    switch fault {
    case .serverErrorAfterHandling?:
      return finish(.json(500, ["result": false, "status": 500, "errorMessage": "Injected server error"]), rateHeaders)
    case .resetAfterHandling?:
      return FlyingFox.HTTPResponse(webSocket: DroppingHandler())
    case .slow(let delay)?:
      try? await Task.sleep(for: delay)
      return finish(answer, rateHeaders)
    case .malformedJSON?:
      var broken = answer
      broken.status = 200
      broken.body = Data(answer.body.prefix(max(answer.body.count / 2, 1)))
      return finish(broken, rateHeaders)
    case .answerSaying(let said)?:
      return finish(answer, rateHeaders.merging(said) { $1 })
    default:
      return finish(answer, rateHeaders)
    }
  }

  /// The 429 body is unconfirmed in the reference; this JSON is a guess in Raindrop's error shape.
  private func rateLimitedAnswer(retryAfter: Int?) -> StubAnswer {
    var answer = StubAnswer.json(429, ["result": false, "status": 429, "errorMessage": "Too Many Requests"])
    if let retryAfter { answer.headers["Retry-After"] = String(retryAfter) }
    return answer
  }

  private func finish(_ answer: StubAnswer, _ rateHeaders: [String: String]) -> FlyingFox.HTTPResponse {
    var headers = HTTPHeaders()
    for (name, value) in rateHeaders { headers[HTTPHeader(name)] = value }
    for (name, value) in answer.headers { headers[HTTPHeader(name)] = value }
    headers[.connection] = "close"
    return FlyingFox.HTTPResponse(
      statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)), headers: headers, body: answer.body
    )
  }

  private static func phrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 413: "Payload Too Large"
    case 429: "Too Many Requests"
    default: "Internal Server Error"
    }
  }
}
