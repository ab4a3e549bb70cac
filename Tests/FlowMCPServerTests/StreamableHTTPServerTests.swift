import FlowIntents
import Foundation
import Synchronization
import Testing

@testable import FlowMCP
@testable import FlowMCPServer

/// The Streamable HTTP server's parts: the addresses it listens on, the requests it reads, and, over a
/// real loopback socket, a client that hangs up during a call (the SDK's client never does that).
struct StreamableHTTPServerTests {
  @Test(arguments: [
    ("8765", "127.0.0.1:8765"), (":8765", "127.0.0.1:8765"), ("127.0.0.1:0", "127.0.0.1:0"),
    ("localhost:8765", "127.0.0.1:8765"), ("127.1.2.3:80", "127.1.2.3:80"), ("[::1]:8765", "[::1]:8765"),
    ("LOCALHOST:1", "127.0.0.1:1"),
  ])
  func readsLoopbackAddresses(text: String, address: String) throws {
    #expect(try LoopbackAddress(parsing: text).description == address)
  }

  @Test(arguments: [
    ("0.0.0.0:8765", "'0.0.0.0' is not a loopback address"),
    ("10.0.0.1:8765", "'10.0.0.1' is not a loopback address"),
    ("example.com:8765", "'example.com' is not a loopback address"),
    ("[::]:8765", "'::' is not a loopback address"),
    ("[::ffff:127.0.0.1]:8765", "'::ffff:127.0.0.1' is not a loopback address"),
    ("127.0.0.1", "'127.0.0.1' does not end in a port number (0 to 65535)"),
    ("127.0.0.1:65536", "'127.0.0.1:65536' does not end in a port number (0 to 65535)"),
    ("::1:8765", "'::1:8765' is not HOST:PORT"),
    ("", "'' does not end in a port number (0 to 65535)"),
  ])
  func refusesOtherAddresses(text: String, message: String) {
    #expect(throws: LoopbackAddress.Problem.self) { try LoopbackAddress(parsing: text) }
    do {
      _ = try LoopbackAddress(parsing: text)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func tellsLoopbackOriginsFromOthers() {
    for origin in ["http://localhost:6274", "http://127.0.0.1", "https://[::1]:8443", "HTTP://LOCALHOST"] {
      #expect(StreamableHTTPServer.isLoopbackOrigin(origin), "\(origin)")
    }
    for origin in [
      "null", "https://evil.example", "http://localhost.evil.example", "http://127.0.0.1.evil.example",
      "http://evil@127.0.0.1", "file://", "http://[::2]", "http://localhost:80/x",
    ] {
      #expect(!StreamableHTTPServer.isLoopbackOrigin(origin), "\(origin)")
    }
  }

  @Test func takesAcceptHeadersThatAllowBothAnswers() {
    #expect(StreamableHTTPServer.accepts(nil))
    #expect(StreamableHTTPServer.accepts("application/json, text/event-stream"))
    #expect(StreamableHTTPServer.accepts("*/*"))
    #expect(StreamableHTTPServer.accepts("application/json;q=0.9, text/*"))
    #expect(!StreamableHTTPServer.accepts("application/json"))
    #expect(!StreamableHTTPServer.accepts("text/event-stream"))
  }

  // MARK: - Reading requests

  /// `bytes` written to one end of a socket pair, read as requests from the other.
  private func requests(_ bytes: String, limits: HTTPLimits = HTTPLimits()) -> [String] {
    var ends: [Int32] = [0, 0]
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
    defer { close(ends[0]) }
    let data = Array(bytes.utf8)
    data.withUnsafeBytes { _ = write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    let reader = HTTPRequestReader(socket: ends[0], limits: limits)
    var seen: [String] = []
    while true {
      switch reader.next() {
      case .end: return seen
      case .problem(let problem):
        seen.append("\(problem.status) \(problem.message)")
        return seen
      case .request(let request):
        seen.append("\(request.method) \(request.path) [\(String(decoding: request.body, as: UTF8.self))]")
      }
    }
  }

  @Test func readsRequestsOneAfterAnother() {
    let text =
      "\r\nPOST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
      + "POST /mcp?a=1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n3;ext=1\r\n\":1\r\n1\r\n}\r\n0\r\n\r\n"
      + "DELETE /mcp HTTP/1.1\r\nHost: x\r\n\r\n"
    #expect(requests(text) == ["POST /mcp [{}]", #"POST /mcp [{"a":1}]"#, "DELETE /mcp []"])
  }

  @Test func refusesWhatIsNotARequest() {
    var small = HTTPLimits()
    small.bodyBytes = 10
    small.headerBytes = 64
    #expect(requests("GET /mcp HTTP/2.0\r\n\r\n") == ["505 the HTTP version 'HTTP/2.0' is not HTTP/1.1 or HTTP/1.0"])
    #expect(requests("GET /mcp\r\n\r\n") == ["400 the request line is not 'METHOD /path HTTP/1.1'"])
    #expect(requests("GET /mcp HTTP/1.1\r\n\r\n") == ["400 an HTTP/1.1 request needs a Host header"])
    #expect(requests("GET /mcp HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n") == ["400 a header line is not 'Name: value'"])
    #expect(requests("GET /mcp HTTP/1.1\r\nHost : x\r\n\r\n") == ["400 a header line is not 'Name: value'"])
    #expect(
      requests("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        == ["400 the request has several Content-Lengths"])
    #expect(
      requests("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n")
        == ["400 a request has both Content-Length and Transfer-Encoding"])
    #expect(
      requests("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: small)
        == ["413 the request's body is longer than 10 bytes"])
    #expect(
      requests("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nb\r\n", limits: small)
        == ["413 the request's body is longer than 10 bytes"])
    #expect(
      requests("GET /mcp HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 80))\r\n\r\n", limits: small)
        == ["431 the request's headers are longer than 64 bytes"])
    #expect(requests("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{}") == ["400 the request ended early"])
  }

  // MARK: - A client that hangs up

  /// Answers `initialize`; `wait` tells the client it started (on the call's stream) and runs until
  /// it is cancelled, which it reports.
  private final class WaitingHandler: RPCHandler {
    let cancelled = Mutex<CheckedContinuation<RPCID, Never>?>(nil)

    func handleRequest(_ method: String, params: FlowValue?, id: RPCID, connection: RPCConnection) async throws
      -> FlowValue
    {
      guard method == "wait" else { return ["protocolVersion": "2025-11-25"] }
      connection.notify("notifications/progress", params: ["progress": 1], relatedTo: id)
      do {
        try await Task.sleep(for: .seconds(600))
      } catch {
        cancelled.withLock { $0 }?.resume(returning: id)
        throw error
      }
      return .nothing
    }
  }

  /// A socket to the server, written and read by hand.
  private struct RawClient: Sendable {
    let socket: Int32

    init(port: UInt16) {
      socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
      _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }

    /// A safety net for a broken server, so that a stream that never ends fails the test rather than
    /// hanging it; nothing waits for it to pass.
    func giveUp(after seconds: Int) {
      var timeout = timeval(tv_sec: seconds, tv_usec: 0)
      setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func post(_ body: String, session: String? = nil) {
      var head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      head += "Accept: application/json, text/event-stream\r\nContent-Length: \(body.utf8.count)\r\n"
      if let session { head += "Mcp-Session-Id: \(session)\r\n" }
      let bytes = Array((head + "\r\n" + body).utf8)
      bytes.withUnsafeBytes { _ = send(socket, $0.baseAddress, $0.count, 0) }
    }

    /// Reads until `text` has arrived; everything read.
    func read(until text: String) -> String {
      var received: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while !String(decoding: received, as: UTF8.self).contains(text) {
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += chunk[0..<count]
      }
      return String(decoding: received, as: UTF8.self)
    }
  }

  /// Runs blocking socket work on a thread of its own: blocking a thread of Swift's small cooperative
  /// pool (two threads on a two-core machine) would starve the server's handlers of it.
  private func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: work()) }.start()
    }
  }

  /// Runs `body` with a server on a free loopback port whose sessions `makeHandler` serves, then stops
  /// it and closes its connections.
  private func withServer(
    options: StreamableHTTPServer.Options = .init(protocolVersions: ["2025-11-25"]),
    _ makeHandler: @escaping @Sendable () -> any RPCHandler,
    _ body: (StreamableHTTPServer) async throws -> Void
  ) async throws {
    let server = try StreamableHTTPServer(
      address: LoopbackAddress(parsing: "127.0.0.1:0"), options: options, makeHandler: makeHandler)
    server.start()
    defer {
      server.stop()
      server.closeConnections()
    }
    try await body(server)
  }

  /// Starts a session on `server` and a `wait` call in it, whose event stream has begun; the session
  /// id and the connection holding the call.
  private func startWaiting(on server: StreamableHTTPServer) async throws -> (
    session: String, call: RawClient, port: UInt16
  ) {
    let port = try #require(UInt16(server.url.split(separator: ":").last?.split(separator: "/").first ?? ""))
    let answer = await blocking {
      let first = RawClient(port: port)
      defer { close(first.socket) }
      first.post(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
      return first.read(until: "2025-11-25")
    }
    let session = try #require(
      answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("mcp-session-id: ") }?.dropFirst(16))
    #expect(answer.contains("Content-Type: application/json"))
    let call = RawClient(port: port)
    call.giveUp(after: 20)
    let started = await blocking {
      call.post(#"{"jsonrpc":"2.0","id":2,"method":"wait"}"#, session: String(session))
      return call.read(until: "notifications/progress")
    }
    #expect(started.contains("Content-Type: text/event-stream"))
    return (String(session), call, port)
  }

  /// With every session taken, a new one ends the session used least recently (a client that went
  /// away without DELETE leaves its session behind), which is then unknown.
  @Test func aNewSessionEndsTheLeastRecentlyUsedOne() async throws {
    var options = StreamableHTTPServer.Options(protocolVersions: ["2025-11-25"])
    options.maximumSessions = 2
    try await withServer(options: options, { WaitingHandler() }) { server in
      let port = try #require(UInt16(server.url.split(separator: ":").last?.split(separator: "/").first ?? ""))
      let statuses = await blocking { () -> [String] in
        let client = RawClient(port: port)
        defer { close(client.socket) }
        func exchange(_ body: String, session: String? = nil) -> String {
          client.post(body, session: session)
          return client.read(until: "}")
        }
        func session(of answer: String) -> String {
          String(
            answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("mcp-session-id: ") }?.dropFirst(16) ?? ""
          )
        }
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
        let ping = #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
        let first = session(of: exchange(initialize))
        let second = session(of: exchange(initialize))
        _ = exchange(ping, session: first)  // the first is now the more recently used
        let third = session(of: exchange(initialize))
        return [first, second, third].map { id in
          String(exchange(ping, session: id).prefix { $0 != "\r\n" })
        }
      }
      #expect(statuses == ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK"])
    }
  }

  /// A call the client cancels gets no answer (the specification's SHOULD), and its event stream
  /// ends without one, so that the connection can carry the next request.
  @Test func aCancelledCallsStreamEnds() async throws {
    let handler = WaitingHandler()
    try await withServer({ handler }) { server in
      let (session, call, port) = try await startWaiting(on: server)
      defer { close(call.socket) }
      let canceller = RawClient(port: port)
      defer { close(canceller.socket) }
      let id = await withCheckedContinuation { continuation in
        handler.cancelled.withLock { $0 = continuation }
        canceller.post(
          #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#, session: session)
      }
      #expect(id == .number(2))
      let accepted = await blocking { canceller.read(until: "\r\n\r\n") }
      #expect(accepted.hasPrefix("HTTP/1.1 202 Accepted"))
      let rest = await blocking { call.read(until: "0\r\n\r\n") }
      #expect(rest.hasSuffix("0\r\n\r\n"), "the stream did not end: \(rest)")
      #expect(!rest.contains(#""id":2"#))
    }
  }

  /// Without resumable streams a call's answer can only go on its own POST, so a client that closes
  /// that connection mid-call cancels the call, as `notifications/cancelled` would.
  @Test func aClientThatHangsUpCancelsItsCall() async throws {
    let handler = WaitingHandler()
    try await withServer({ handler }) { server in
      let (_, second, _) = try await startWaiting(on: server)
      let id = await withCheckedContinuation { continuation in
        handler.cancelled.withLock { $0 = continuation }
        close(second.socket)
      }
      #expect(id == .number(2))
    }
  }
}

// MARK: - Slow and doubled requests (issue 28)

extension StreamableHTTPServerTests {
  /// Two Hosts or two Origins: which one the server checked would depend on who reads the request.
  @Test func refusesDuplicateHostAndOrigin() {
    #expect(
      requests("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n") == [
        "400 the request has several Host headers"
      ])
    #expect(
      requests("GET /mcp HTTP/1.1\r\nHost: x\r\nOrigin: http://127.0.0.1\r\norigin: http://evil.example\r\n\r\n")
        == ["400 the request has several Origin headers"])
  }

  /// The first `count` bytes of `bytes` written to a socket pair that stays open (a client that goes
  /// quiet), read as requests with `limits`; the socket gives up after 20 s so that a reader without
  /// deadlines fails the test rather than hanging it.
  private func stalled(_ bytes: String, limits: HTTPLimits) -> String {
    var ends: [Int32] = [0, 0]
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
    defer {
      close(ends[0])
      close(ends[1])
    }
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(ends[0], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    Array(bytes.utf8).withUnsafeBytes { _ = write(ends[1], $0.baseAddress, $0.count) }
    switch HTTPRequestReader(socket: ends[0], limits: limits).next() {
    case .problem(let problem): return "\(problem.status) \(problem.message)"
    case .request: return "a request"
    case .end: return "the end"
    }
  }

  /// Headers or a body that stop arriving are answered 408 at their deadline (the socket's idle timeout
  /// starts again with every byte, so a byte at a time held a connection for good).
  @Test func slowHeadersAndBodiesTimeOut() {
    var quick = HTTPLimits()
    quick.headerTime = .milliseconds(100)
    quick.bodyTime = .milliseconds(100)
    #expect(
      stalled("POST /mcp HTTP/1.1\r\nHo", limits: quick) == "408 the request's headers did not arrive within 100ms")
    #expect(
      stalled("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}", limits: quick)
        == "408 the request's body did not arrive within 100ms")
    #expect(
      stalled("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}", limits: quick)
        == "408 the request's body did not arrive within 100ms")
  }

  /// 32 connections that send one byte or nothing (slowloris) fill every place; a client that then
  /// connects is still answered: the connection that waited longest for its request makes room.
  @Test func slowConnectionsDoNotLockOutAClient() async throws {
    try await withServer({ WaitingHandler() }) { server in
      let port = try #require(UInt16(server.url.split(separator: ":").last?.split(separator: "/").first ?? ""))
      let slow = (0..<32).map { index in
        let client = RawClient(port: port)
        client.giveUp(after: 20)
        if index.isMultiple(of: 2) { _ = send(client.socket, "P", 1, 0) }
        return client
      }
      defer { for client in slow { close(client.socket) } }
      let answer = await blocking {
        let client = RawClient(port: port)
        // A safety net, not a wait: in the full parallel suite other tests can hold both of Swift's
        // cooperative threads (which the server's handler needs) for tens of seconds.
        client.giveUp(after: 120)
        defer { close(client.socket) }
        client.post(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        return client.read(until: "2025-11-25")
      }
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
      #expect(answer.contains("2025-11-25"))
      // The first slow connection made room: the server closed it.
      let closed = await blocking { slow[0].read(until: "never sent") }
      #expect(closed.isEmpty)
    }
  }
}
