import FlyingFox
import Foundation

/// A real HTTP server on 127.0.0.1 at a free port, for tests that must go over a socket (`get-url`, a
/// backend's REST client). Every request is recorded; one closure answers them all.
///
/// Answers always carry `Connection: close`: FlyingFox otherwise keeps the connection open and a client
/// waits about 40 ms per request for it (Nagle and delayed ACKs). Clients need
/// `no_proxy=127.0.0.1,localhost`: libcurl honours `http_proxy` even for loopback.
public final class LoopbackServer: Sendable {
  /// A request as the server saw it.
  public struct Request: Sendable, Hashable {
    public var method: String
    public var path: String
    /// The query string, without the `?`.
    public var query: String
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: Data

    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// An answer to send back.
  public struct Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// Wait this long before answering (for timeout tests); cut short when the server stops.
    public var delay: Duration?

    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Duration? = nil) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
    }

    public static func json(_ text: String, status: Int = 200) -> Response {
      Response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    public static func text(_ text: String, status: Int = 200) -> Response {
      Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
  }

  private let server: HTTPServer
  private let task: Task<Void, any Error>
  private let log: RequestLog
  /// `http://127.0.0.1:PORT`.
  public let baseURL: URL

  private init(server: HTTPServer, task: Task<Void, any Error>, log: RequestLog, baseURL: URL) {
    self.server = server
    self.task = task
    self.log = log
    self.baseURL = baseURL
  }

  /// Starts a server whose answers come from `respond`; stop it with ``stop()``.
  public static func start(_ respond: @escaping @Sendable (Request) async throws -> Response) async throws
    -> LoopbackServer
  {
    let log = RequestLog()
    let server = HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled,
      handler: Handler(log: log, respond: respond))
    let task = Task { try await server.run() }
    // FlyingFox's default is 5 s, which a test suite holding every cooperative thread can use up before
    // the server's task runs; this bounds only a failure.
    try await server.waitUntilListening(timeout: 120)
    guard case .ip4(_, let port)? = await server.listeningAddress,
      let url = URL(string: "http://127.0.0.1:\(port)")
    else {
      task.cancel()
      throw URLError(.cannotConnectToHost)
    }
    return LoopbackServer(server: server, task: task, log: log, baseURL: url)
  }

  /// The URL of `path` on this server.
  public func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + path) ?? baseURL
  }

  /// Every request so far, in order.
  public var requests: [Request] { get async { await log.requests } }

  public func stop() async {
    await server.stop(timeout: 0)
    task.cancel()
  }

  private actor RequestLog {
    var requests: [Request] = []
    func append(_ request: Request) { requests.append(request) }
  }

  private struct Handler: HTTPHandler {
    let log: RequestLog
    let respond: @Sendable (Request) async throws -> Response

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
      var headers: [String: String] = [:]
      for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
      let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
      let recorded = Request(
        method: request.method.rawValue, path: request.path, query: query, headers: headers,
        body: try await request.bodyData)
      await log.append(recorded)
      let response = try await respond(recorded)
      if let delay = response.delay { try await Task.sleep(for: delay) }
      var fields = HTTPHeaders()
      for (name, value) in response.headers { fields[HTTPHeader(name)] = value }
      fields[HTTPHeader("Connection")] = "close"
      return HTTPResponse(
        statusCode: HTTPStatusCode(response.status, phrase: "Status \(response.status)"), headers: fields,
        body: response.body)
    }
  }
}
