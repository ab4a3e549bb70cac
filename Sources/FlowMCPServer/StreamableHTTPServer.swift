import FlowDiagnostics
import FlowIntents
import FlowMCP
import FoundationEssentials
import Glibc
import Synchronization

/// MCP's Streamable HTTP transport, the server's side (`flow mcp --http`): one endpoint on a loopback
/// address where the client POSTs each JSON-RPC message. A request is answered as `application/json`,
/// or as an event stream when the server sends the client something first (an elicitation, progress)
/// — the client answers those in POSTs of their own. Each session (`Mcp-Session-Id`, given at
/// `initialize`) is one ``RPCConnection`` over an ``HTTPServerWire`` with a handler of its own, the
/// same handler the stdio transport drives.
public final class StreamableHTTPServer: Sendable {
  public struct Options: Sendable {
    /// The protocol revisions the handler negotiates: an `MCP-Protocol-Version` header naming any
    /// other is refused (400).
    public var protocolVersions: [String]
    public var path = "/mcp"
    public var limits = HTTPLimits()
    public var maximumSessions = 64
    public var maximumConnections = 32

    public init(protocolVersions: [String]) {
      self.protocolVersions = protocolVersions
    }
  }

  /// Why the server could not start listening.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  private final class Session: Sendable {
    let id: String
    let wire: HTTPServerWire
    let connection: RPCConnection
    /// When the client last POSTed to it, in requests served (a count, not a clock): the session to
    /// end first when there are too many.
    let lastUsed = Mutex(0)

    init(id: String, handler: any RPCHandler) {
      self.id = id
      wire = HTTPServerWire()
      connection = RPCConnection(wire: wire, handler: handler)
    }
  }

  private let listener: HTTPListener
  private let options: Options
  private let makeHandler: @Sendable () -> any RPCHandler
  private let sessions = Mutex<[String: Session]>([:])
  /// Requests served so far, for ``Session/lastUsed``.
  private let served = Mutex(0)

  /// Listens on `address` at once (so that port 0 has its number); serves after ``start()``.
  public init(
    address: LoopbackAddress, options: Options, makeHandler: @escaping @Sendable () -> any RPCHandler
  ) throws(Failure) {
    do {
      listener = try HTTPListener(address: address, maximumConnections: options.maximumConnections)
    } catch {
      throw Failure(description: error.description)
    }
    self.options = options
    self.makeHandler = makeHandler
  }

  /// The endpoint, as a client is given it: `http://127.0.0.1:8765/mcp`.
  public var url: String { "http://\(listener.address.urlHost):\(listener.port)\(options.path)" }

  public func start() {
    listener.start { [self] socket in serve(socket) }
  }

  /// Stops accepting connections and ends every session, which cancels the calls running (the
  /// handlers' `connectionClosed`). The connections stay open until ``closeConnections()``, so that
  /// the answers owed can still be written.
  public func stop() {
    listener.stop()
    let ended = sessions.withLock { sessions in
      defer { sessions.removeAll() }
      return Array(sessions.values)
    }
    for session in ended { session.wire.hangUp() }
  }

  /// Closes every connection still open (after ``stop()``).
  public func closeConnections() {
    listener.closeConnections()
  }

  // MARK: - One connection

  private func serve(_ socket: Int32) {
    let reader = HTTPRequestReader(socket: socket, limits: options.limits)
    let writer = HTTPResponseWriter(socket: socket)
    while true {
      listener.setWaiting(socket, true)
      let next = reader.next()
      listener.setWaiting(socket, false)
      switch next {
      case .end: return
      case .problem(let problem):
        writer.refuse(problem, keepAlive: false)
        return
      case .request(let request):
        let keepAlive = request.keepsAlive
        guard respond(to: request, reader: reader, writer: writer, keepAlive: keepAlive), keepAlive else { return }
      }
    }
  }

  /// Answers one request; false when the connection cannot carry another.
  private func respond(
    to request: IncomingHTTPRequest, reader: HTTPRequestReader, writer: HTTPResponseWriter, keepAlive: Bool
  ) -> Bool {
    func refuse(_ status: Int, _ message: String, headers: [(String, String)] = []) -> Bool {
      writer.refuse(HTTPRequestProblem(status, message), headers: headers, keepAlive: keepAlive)
    }
    guard request.path == options.path else {
      return refuse(404, "there is nothing at \(request.path): the MCP endpoint is \(options.path)")
    }
    // Against DNS rebinding (the specification's MUST): a web page whose name was made to point at
    // 127.0.0.1 can reach this port, but its requests carry its own Origin and Host.
    if let origin = request.header("origin"), !Self.isLoopbackOrigin(origin) {
      return refuse(403, "the Origin '\(origin)' is not on this machine: flow mcp answers only local clients")
    }
    if let host = request.header("host"), !LoopbackAddress.isLoopbackHost(host) {
      return refuse(403, "the Host '\(host)' is not a loopback address: flow mcp answers only local clients")
    }
    switch request.method {
    case "POST": return post(request, reader: reader, writer: writer, keepAlive: keepAlive)
    case "DELETE":
      guard let id = request.header("mcp-session-id") else { return refuse(400, "DELETE needs an Mcp-Session-Id") }
      guard let session = sessions.withLock({ $0.removeValue(forKey: id) }) else {
        return refuse(404, "there is no session '\(id)'")
      }
      session.wire.hangUp()
      return writer.write(status: 200, keepAlive: keepAlive)
    default:
      // GET would open a stream for messages outside any request; flow sends none.
      return refuse(
        405, "flow mcp takes POST (messages) and DELETE (ending a session), not \(request.method)",
        headers: [("Allow", "POST, DELETE")])
    }
  }

  private func post(
    _ request: IncomingHTTPRequest, reader: HTTPRequestReader, writer: HTTPResponseWriter, keepAlive: Bool
  ) -> Bool {
    func refuse(_ status: Int, _ message: String, headers: [(String, String)] = []) -> Bool {
      writer.refuse(HTTPRequestProblem(status, message), headers: headers, keepAlive: keepAlive)
    }
    let contentType = request.header("content-type")?.split(separator: ";").first?
      .trimmingWhitespace().lowercased()
    guard contentType == "application/json" else {
      return refuse(415, "a message is POSTed as Content-Type: application/json")
    }
    guard Self.accepts(request.header("accept")) else {
      return refuse(
        406, "the client must accept both application/json and text/event-stream (the answer is either)")
    }
    let message: RPCMessage
    do {
      message = try RPCMessage.decode(String(decoding: request.body, as: UTF8.self))
    } catch {
      let answer = RPCMessage.error(
        id: nil, RPCError(code: RPCError.parseError, message: "Parse error: \(error.message)"))
      return writer.writeJSON(status: 400, answer.encoded(), keepAlive: keepAlive)
    }
    let session: Session
    if let id = request.header("mcp-session-id") {
      guard let known = sessions.withLock({ $0[id] }) else {
        return refuse(404, "there is no session '\(id)' (it ended, or flow mcp was restarted): initialize again")
      }
      if let version = request.header("mcp-protocol-version"), !options.protocolVersions.contains(version) {
        return refuse(
          400,
          "MCP-Protocol-Version '\(version)' is not one flow speaks (\(options.protocolVersions.joined(separator: ", ")))"
        )
      }
      session = known
      let now = tick()
      session.lastUsed.withLock { $0 = now }
    } else {
      guard case .request(_, "initialize", _) = message else {
        return refuse(400, "a message other than 'initialize' needs the Mcp-Session-Id that 'initialize' gave")
      }
      guard let made = openSession() else {
        return refuse(
          503, "\(options.maximumSessions) sessions are running calls: end one with DELETE, or wait for a call to end")
      }
      session = made
    }
    let headers = [("Mcp-Session-Id", session.id)]
    guard case .request(let id, _, _) = message else {
      // Notifications (`notifications/cancelled`, `notifications/initialized`) and the client's
      // answers to the server's requests.
      session.wire.receive(message)
      return writer.write(status: 202, headers: headers, keepAlive: keepAlive)
    }
    guard let stream = session.wire.open(id) else {
      let answer = RPCMessage.error(
        id: id, RPCError(code: RPCError.invalidRequest, message: "a request with id \(id) is still running"))
      return writer.writeJSON(status: 409, answer.encoded(), headers: headers, keepAlive: keepAlive)
    }
    session.wire.receive(message)
    return answer(id, from: stream, in: session, reader: reader, writer: writer, headers: headers, keepAlive: keepAlive)
  }

  /// Writes what the connection sends for request `id`: its answer alone as JSON, or, when something
  /// comes before it, an event stream that ends with the answer (or with nothing, for a request that
  /// was withdrawn). A client that hangs up meanwhile cancels the request, as `notifications/cancelled`
  /// would: without resumable streams its answer could never reach it.
  private func answer(
    _ id: RPCID, from stream: ResponseStream, in session: Session, reader: HTTPRequestReader,
    writer: HTTPResponseWriter, headers: [(String, String)], keepAlive: Bool
  ) -> Bool {
    var streaming = false
    defer { session.wire.release(id, stream) }
    func hungUp() -> Bool {
      session.wire.release(id, stream)
      session.wire.receive(
        .notification(
          method: "notifications/cancelled",
          params: ["requestId": id.value, "reason": "the client closed the connection"]))
      return false
    }
    while true {
      for item in stream.take() {
        switch item {
        case .message(let message):
          let isAnswer =
            switch message {
            case .response(let answered, _), .error(let answered?, _): answered == id
            default: false
            }
          if !streaming, isAnswer {
            return writer.writeJSON(status: 200, message.encoded(), headers: headers, keepAlive: keepAlive)
          }
          if !streaming {
            guard writer.beginStream(headers: headers, keepAlive: keepAlive) else { return hungUp() }
            streaming = true
          }
          guard writer.event(message) else { return hungUp() }
          if isAnswer { return writer.endStream() }
        case .end:
          if !streaming {
            guard writer.beginStream(headers: headers, keepAlive: keepAlive) else { return false }
          }
          return writer.endStream()
        }
      }
      guard waitForMore(stream, reader: reader) else { return hungUp() }
    }
  }

  /// Waits until something is pushed to `stream`; false when the client hangs up first (or sends
  /// more than a request's worth of bytes ahead while it waits).
  private func waitForMore(_ stream: ResponseStream, reader: HTTPRequestReader) -> Bool {
    // POLLRDHUP (0x2000): the client shut its side; Glibc's module does not export the constant.
    let hangUp = Int16(0x2000) | Int16(POLLHUP) | Int16(POLLERR)
    while true {
      var watched = [
        pollfd(fd: reader.socket, events: Int16(POLLIN) | Int16(0x2000), revents: 0),
        pollfd(fd: stream.wake, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&watched, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return false
      }
      if watched[0].revents & hangUp != 0 { return false }
      if watched[0].revents & Int16(POLLIN) != 0 {
        // A pipelining client's next request: kept for later, within bounds.
        guard case .data = reader.fill(), reader.buffered <= options.limits.headerBytes + options.limits.bodyBytes
        else { return false }
      }
      if watched[1].revents != 0 { return true }
    }
  }

  private func tick() -> Int {
    served.withLock { count in
      count += 1
      return count
    }
  }

  /// A new session; when there are already ``Options/maximumSessions``, the one used least recently
  /// among those running no call is ended to make room (a client that went away without DELETE
  /// leaves its session behind), and there is none only when every session is running a call.
  private func openSession() -> Session? {
    let id = Self.sessionID()
    let (session, evicted) = sessions.withLock { sessions -> (Session?, Session?) in
      var evicted: Session?
      if sessions.count >= options.maximumSessions {
        evicted = sessions.values.filter { $0.wire.isIdle }.min {
          $0.lastUsed.withLock { $0 } < $1.lastUsed.withLock { $0 }
        }
        guard let evicted else { return (nil, nil) }
        sessions[evicted.id] = nil
      }
      let session = Session(id: id, handler: makeHandler())
      session.lastUsed.withLock { $0 = tick() }
      sessions[id] = session
      return (session, evicted)
    }
    evicted?.wire.hangUp()
    session?.connection.start()
    return session
  }

  /// 128 bits from the system's cryptographic generator (getrandom(2)), in hex: a session id must
  /// not be guessable, since it is all that tells one client's session from another's.
  static func sessionID() -> String {
    var generator = SystemRandomNumberGenerator()
    return [generator.next() as UInt64, generator.next()].withUnsafeBytes { Hex.encode(Array($0)) }
  }

  /// An `Origin` of a page served from this machine's loopback (`http://localhost:3000`); `null`
  /// (a sandboxed page, a file) and every other site are refused.
  public static func isLoopbackOrigin(_ origin: String) -> Bool {
    let lowered = origin.lowercased()
    for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
      let authority = lowered.dropFirst(scheme.count)
      guard !authority.contains("/"), !authority.contains("@") else { return false }
      return LoopbackAddress.isLoopbackHost(String(authority))
    }
    return false
  }

  /// Whether an `Accept` header takes both answers a POST may get (no header takes anything).
  public static func accepts(_ accept: String?) -> Bool {
    guard let accept else { return true }
    let types = accept.lowercased().split(separator: ",").map {
      $0.split(separator: ";").first.map { $0.trimmingWhitespace() } ?? ""
    }
    let json = types.contains { $0 == "application/json" || $0 == "application/*" || $0 == "*/*" }
    let events = types.contains { $0 == "text/event-stream" || $0 == "text/*" || $0 == "*/*" }
    return json && events
  }
}
