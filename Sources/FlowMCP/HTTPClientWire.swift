import Dispatch
import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FoundationEssentials
import Glibc
import Synchronization

/// MCP's Streamable HTTP transport, the client's side (Documentation/MCP.md, "HTTP servers").
///
/// Each message is a POST to the server's one URL. A request's answer comes back as one JSON body or as
/// an event stream that may carry the server's requests (elicitation) and notifications (progress)
/// first; notifications and answers get 202. The session id the server gives with its answer to
/// `initialize` and the negotiated protocol version go with every later message; shutting down sends
/// DELETE with the session id.
///
/// Messages leave in the order they are sent, from one sender thread: a notification is on the server
/// before the request sent after it (`notifications/initialized` before `tools/list`). A request only
/// starts its transfer there; each transfer then reads its answer on a thread of its own, so that the
/// answer to a question the server asks on an open stream can go out while that stream is open.
///
/// Anything that goes wrong with the transport (nothing listening, a refused credential, an ended
/// session, a body that is not the protocol) ends the connection: ``failure`` says what, and the
/// requests still waiting fail with it.
public final class HTTPClientWire: RPCWire {
  /// What went wrong, worded to follow "server 'NAME' (URL) ".
  public struct Failure: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
      /// Nothing answered at the address.
      case unreachable
      /// HTTP 401 or 403.
      case unauthorised
      /// HTTP 404 to a request carrying the session id: the server forgot the session.
      case sessionEnded
      /// Another status that is not success.
      case status
      /// A body or content type that is not the protocol.
      case notProtocol
      /// The connection failed in another way (lost, timed out, too large).
      case transport
    }
    public var kind: Kind
    public var message: String
    public var description: String { message }
  }

  /// How long a notification or an answer may take to be accepted: they get 202 at once from a server
  /// that works, and one that hangs must not hold up the messages behind them for long.
  static let acceptLimit = Duration.seconds(10)

  public let url: URL
  private let headers: [String: String]
  /// For each configured header, the environment variable its value came from (for messages).
  private let headerSources: [String: String]
  private let transport: any StreamingHTTPTransport
  private let connectTimeout: Duration
  private let maximumMessage: Int
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let drained = DispatchSemaphore(value: 0)

  private struct State {
    var connection: RPCConnection?
    var queue: [RPCMessage] = []
    var sessionID: String?
    var protocolVersion: String?
    var initializeID: RPCID?
    /// Transfers reading an answer, by the id of the request they carry.
    var transfers: [RPCID: HTTPCancellation] = [:]
    var closing = false
    var started = false
    /// The sender thread, once it runs.
    var sender: pthread_t?
    var failure: Failure?
  }

  /// A wire to the server at `url`, sending `headers` with every message (their values already read
  /// from the environment; `headerSources` names the variable of each, for messages).
  public init(
    url: URL, headers: [String: String], headerSources: [String: String] = [:],
    transport: any StreamingHTTPTransport = CurlTransport(), connectTimeout: Duration = .seconds(10),
    maximumMessage: Int = 64 << 20
  ) {
    self.url = url
    self.headers = headers
    self.headerSources = headerSources
    self.transport = transport
    self.connectTimeout = connectTimeout
    self.maximumMessage = maximumMessage
  }

  /// The first thing that went wrong with the transport, once something has.
  public var failure: Failure? { state.withLock { $0.failure } }

  public func start(_ connection: RPCConnection) {
    state.withLock {
      $0.connection = connection
      $0.started = true
    }
    DetachedThread.run { [self] in sendLoop() }
  }

  public func send(_ message: RPCMessage, relatedTo request: RPCID?) -> Bool {
    let queued = state.withLock { state -> Bool in
      guard !state.closing else { return false }
      state.queue.append(message)
      return true
    }
    if queued { wake.signal() }
    return queued
  }

  /// Sends what is queued, ends the session (DELETE; a server that does not allow it answers 405, which
  /// is fine), stops the transfers still reading, and finishes the connection.
  public func closeOutput() {
    let started = state.withLock { state -> Bool in
      guard !state.closing else { return false }
      state.closing = true
      return state.started
    }
    guard started else { return }
    wake.signal()
    // The sender drains the queue first (a `notifications/cancelled` sent just before shutdown still
    // reaches the server); closing from the sender itself (a failed send) cannot wait for it.
    let onSender = state.withLock { $0.sender.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    if !onSender { _ = drained.wait(timeout: .now() + .seconds(2)) }
    let (transfers, session, connection) = state.withLock { state in
      defer { state.transfers.removeAll() }
      return (Array(state.transfers.values), state.sessionID, state.connection)
    }
    for transfer in transfers { transfer.cancel() }
    if let session, failure?.kind != .sessionEnded {
      var request = HTTPRequest(method: "DELETE", url: url, headers: headers, timeout: connectTimeout)
      request.headers["Mcp-Session-Id"] = session
      _ = transport.stream(
        request, limit: .seconds(2), cancellation: HTTPCancellation(), head: { _ in true }, body: { _ in true })
    }
    connection?.finish(.closedHere)
  }

  // MARK: - Sending

  private func sendLoop() {
    state.withLock { $0.sender = pthread_self() }
    while true {
      wake.wait()
      let next = state.withLock { state -> (RPCMessage?, Bool) in
        if state.queue.isEmpty { return (nil, state.closing) }
        return (state.queue.removeFirst(), false)
      }
      if next.1 { break }
      guard let message = next.0 else { continue }
      switch message {
      case .request(let id, let method, _):
        let cancellation = HTTPCancellation()
        state.withLock { state in
          if method == "initialize" { state.initializeID = id }
          state.transfers[id] = cancellation
        }
        DetachedThread.run { [self] in
          exchange(message, answering: id, cancellation: cancellation)
        }
      case .notification(let method, let params):
        exchange(message, answering: nil, cancellation: HTTPCancellation())
        // A withdrawn request gets no answer: stop reading its stream once the server knows.
        if method == "notifications/cancelled", let raw = params?.dictionaryFields["requestId"], let id = RPCID(raw) {
          state.withLock { $0.transfers.removeValue(forKey: id) }?.cancel()
        }
      case .response, .error:
        exchange(message, answering: nil, cancellation: HTTPCancellation())
      }
      // Signal again so that a close that arrived while sending finds the queue's end.
      if state.withLock({ $0.closing && $0.queue.isEmpty }) { wake.signal() }
    }
    drained.signal()
  }

  /// What a transfer's body turned out to be.
  private enum Body {
    case undecided
    case ignored
    case json(Data)
    case events(EventStreamParser)
    case refused(status: Int, excerpt: Data)
  }

  /// POSTs one message and reads what comes back: for a request (`answering` its id), its answer and
  /// whatever the server sends before it.
  private func exchange(_ message: RPCMessage, answering id: RPCID?, cancellation: HTTPCancellation) {
    let (session, version, isInitialize) = state.withLock { state in
      (state.sessionID, state.protocolVersion, id != nil && state.initializeID == id)
    }
    var request = HTTPRequest(
      method: "POST", url: url, headers: headers, body: Data(message.encoded().utf8), timeout: connectTimeout)
    request.headers["Content-Type"] = "application/json"
    request.headers["Accept"] = "application/json, text/event-stream"
    if let session { request.headers["Mcp-Session-Id"] = session }
    if let version { request.headers["MCP-Protocol-Version"] = version }
    var body = Body.undecided
    var problem: Failure?
    var answered = false
    let outcome = transport.stream(
      request, limit: id == nil ? Self.acceptLimit : nil, cancellation: cancellation,
      head: { head in
        if isInitialize, let session = head[header: "mcp-session-id"] {
          state.withLock { $0.sessionID = session }
        }
        guard (200..<300).contains(head.status) else {
          body = .refused(status: head.status, excerpt: Data())
          return true
        }
        guard let id else {
          body = .ignored
          return true
        }
        // The specification's MUST: a request is answered with JSON or an event stream, never just accepted.
        if head.status == 202 {
          problem = Failure(kind: .notProtocol, message: "accepted request \(id.value.text) without answering it")
          return false
        }
        let type = (head[header: "content-type"] ?? "").split(separator: ";").first.map {
          $0.trimmingWhitespace().lowercased()
        }
        switch type {
        case "text/event-stream": body = .events(EventStreamParser(maximumEvent: maximumMessage))
        case "application/json": body = .json(Data())
        default:
          problem = Failure(
            kind: .notProtocol,
            message:
              "answered with content type '\(type ?? "")', which is neither JSON ('application/json') nor an event stream ('text/event-stream')"
          )
          return false
        }
        return true
      },
      body: { bytes in
        switch body {
        case .undecided, .ignored: return true
        case .refused(let status, var excerpt):
          if excerpt.count < 4096 { excerpt.append(contentsOf: bytes.prefix(4096 - excerpt.count)) }
          body = .refused(status: status, excerpt: excerpt)
          return true
        case .json(var data):
          data.append(contentsOf: bytes)
          guard data.count <= maximumMessage else {
            problem = Failure(kind: .transport, message: "sent an answer longer than \(maximumMessage) bytes")
            return false
          }
          body = .json(data)
          return true
        case .events(var parser):
          let events = parser.feed(bytes)
          body = .events(parser)
          if parser.overflowed {
            problem = Failure(kind: .transport, message: "sent an event longer than \(maximumMessage) bytes")
            return false
          }
          for event in events where event.type == "message" {
            if let failure = deliver(event.data, answering: id, answered: &answered) {
              problem = failure
              return false
            }
          }
          return true
        }
      })
    if let id { state.withLock { _ = $0.transfers.removeValue(forKey: id) } }
    if let problem { return fail(problem) }
    switch outcome {
    case .failure(.cancelled): return
    case .failure(let error): return fail(describe(error))
    case .success: break
    }
    switch body {
    case .undecided, .ignored: break
    case .refused(let status, let excerpt): fail(refusal(status, excerpt: excerpt, hadSession: session != nil))
    case .json(let data):
      if let failure = deliver(String(decoding: data, as: UTF8.self), answering: id, answered: &answered) {
        fail(failure)
      }
    case .events:
      if let id, !answered {
        fail(
          Failure(
            kind: .transport, message: "closed the event stream of request \(id.value.text) before answering it"))
      }
    }
  }

  /// Hands one message the server sent to the connection; a failure when it is not JSON-RPC.
  private func deliver(_ text: String, answering id: RPCID?, answered: inout Bool) -> Failure? {
    let message: RPCMessage
    do {
      message = try RPCMessage.decode(text)
    } catch {
      let shown = text.count > 120 ? String(text.prefix(120)) + "…" : text
      return Failure(
        kind: .notProtocol, message: "answered with something that is not JSON-RPC (\(error.message)): \(shown)")
    }
    let connection = state.withLock { state -> RPCConnection? in
      if case .response(let answer, let result) = message, answer == state.initializeID,
        let version = result.dictionaryFields["protocolVersion"]?.text
      {
        state.protocolVersion = version
      }
      return state.connection
    }
    switch message {
    case .response(let answer, _) where answer == id, .error(.some(let answer), _) where answer == id:
      answered = true
    default: break
    }
    connection?.receive(message)
    return nil
  }

  private func refusal(_ status: Int, excerpt: Data, hadSession: Bool) -> Failure {
    let text = String(decoding: excerpt, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingWhitespace()
    let shown = text.isEmpty ? "" : ": " + (text.count > 200 ? String(text.prefix(200)) + "…" : text)
    switch status {
    case 401, 403:
      let sent =
        headerSources.isEmpty
        ? "no header is configured (add one with 'flow servers add NAME --url URL --header-env HEADER=VARIABLE')"
        : "it was sent "
          + headerSources.sorted { $0.key < $1.key }.map { "'\($0.key)' from $\($0.value)" }.joined(separator: ", ")
      return Failure(kind: .unauthorised, message: "refused the request with HTTP \(status)\(shown); \(sent)")
    case 404 where hadSession:
      return Failure(kind: .sessionEnded, message: "ended the session (HTTP 404 to a request with its session id)")
    default: return Failure(kind: .status, message: "answered HTTP \(status)\(shown)")
    }
  }

  private func describe(_ error: HTTPTransportError) -> Failure {
    switch error {
    case .cannotConnect:
      let port = url.port.map { ":\($0)" } ?? ""
      return Failure(kind: .unreachable, message: "cannot be reached: nothing answered at \(url.host ?? "")\(port)")
    case .timedOut(let after):
      return Failure(kind: .unreachable, message: "cannot be reached: no connection within \(after)")
    case .connectionLost: return Failure(kind: .transport, message: "closed the connection before answering")
    default: return Failure(kind: .transport, message: error.description)
    }
  }

  /// Records the first failure and ends the connection with it.
  private func fail(_ failure: Failure) {
    let connection = state.withLock { state -> RPCConnection? in
      if state.failure == nil { state.failure = failure }
      return state.closing ? nil : state.connection
    }
    connection?.finish(.endOfInput)
  }
}
