import FlowMCP
import FlowSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The server's side of one Streamable HTTP session, as an ``RPCWire``: the client's messages arrive
/// in POSTs (``receive(_:)``), and what the connection sends goes back on the POST of the request it
/// belongs to: the answer by its id, the server's own requests and notifications made for a request
/// (an elicitation or progress during a `tools/call`) by their `relatedTo`. A message that belongs to
/// no open request has nowhere to go (flow opens no stream of its own: GET is refused) and is dropped.
final class HTTPServerWire: RPCWire {
  private struct State {
    var connection: RPCConnection?
    var streams: [RPCID: ResponseStream] = [:]
    var closed = false
  }
  private let state = Mutex(State())

  func start(_ connection: RPCConnection) {
    state.withLock { $0.connection = connection }
  }

  func send(_ message: RPCMessage, relatedTo request: RPCID?) -> Bool {
    let key: RPCID? =
      switch message {
      case .response(let id, _): id
      case .error(let id?, _): id
      default: request
      }
    guard let key, let stream = state.withLock({ $0.closed ? nil : $0.streams[key] }) else { return false }
    return stream.push(.message(message))
  }

  func requestEnded(_ request: RPCID) {
    state.withLock { $0.streams.removeValue(forKey: request) }?.push(.end)
  }

  func closeOutput() {
    let streams = state.withLock { state in
      state.closed = true
      defer { state.streams.removeAll() }
      return Array(state.streams.values)
    }
    for stream in streams { stream.push(.end) }
  }

  // MARK: - The endpoint's side

  /// Opens the way back for the client's request `id`, before the request is handed to the
  /// connection; nil when a request of that id is still open (or the session has ended).
  func open(_ id: RPCID) -> ResponseStream? {
    state.withLock { state in
      guard !state.closed, state.streams[id] == nil, let stream = ResponseStream() else { return nil }
      state.streams[id] = stream
      return stream
    }
  }

  /// Whether no request of the session is open.
  var isIdle: Bool { state.withLock { $0.streams.isEmpty } }

  /// The POST of request `id` is gone: messages for it have nowhere to go any more.
  func release(_ id: RPCID, _ stream: ResponseStream) {
    state.withLock { state in
      if state.streams[id] === stream { state.streams[id] = nil }
    }
  }

  /// Hands a message the client POSTed to the connection.
  func receive(_ message: RPCMessage) {
    state.withLock { $0.connection }?.receive(message)
  }

  /// The client ended the session (DELETE) or the server stops: the connection finishes as when a
  /// stdio client hangs up, which cancels the calls running.
  func hangUp() {
    state.withLock { $0.connection }?.finish(.endOfInput)
  }
}

/// The messages for one POSTed request, taken by the thread that holds that POST open. Pushing wakes
/// that thread through a pipe, which it polls together with its socket, so that it notices a client
/// that hangs up while it waits.
final class ResponseStream: Sendable {
  enum Item: Sendable {
    case message(RPCMessage)
    /// The request is over without (another) message: it was withdrawn, or the session ended.
    case end
  }

  private let items = Mutex<[Item]>([])
  /// Read and write ends of a non-blocking pipe: one byte per push, drained by ``take()``.
  let wake: Int32
  private let waker: Int32

  init?() {
    guard let ends = try? Subprocess.pipe() else { return nil }
    for end in [ends.read, ends.write] { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
    (wake, waker) = ends
  }

  deinit {
    close(wake)
    close(waker)
  }

  @discardableResult
  func push(_ item: Item) -> Bool {
    items.withLock { $0.append(item) }
    var byte: UInt8 = 1
    // A full pipe already means "wake up"; the byte is only a signal.
    _ = write(waker, &byte, 1)
    return true
  }

  /// Everything pushed since the last take, in order.
  func take() -> [Item] {
    var sink = [UInt8](repeating: 0, count: 64)
    while sink.withUnsafeMutableBytes({ read(wake, $0.baseAddress, $0.count) }) > 0 {}
    return items.withLock { items in
      defer { items.removeAll() }
      return items
    }
  }
}
