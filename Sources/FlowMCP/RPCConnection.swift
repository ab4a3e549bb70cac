import FlowIntents
import FoundationEssentials
import Synchronization

/// What a connection hands the peer's requests and notifications to: the client's handler answers a
/// server's `elicitation/create`, the server's answers `tools/list` and `tools/call`.
public protocol RPCHandler: Sendable {
  /// Answers a request. Throw an `RPCError` for an error answer; any other error becomes an internal error.
  /// Runs in a task of its own, cancelled when the peer sends `notifications/cancelled` for its id.
  func handleRequest(_ method: String, params: FlowValue?, id: RPCID, connection: RPCConnection) async throws
    -> FlowValue
  /// Called on the reader thread, in the order notifications arrive (progress must not overtake itself);
  /// keep it short. `notifications/cancelled` is handled by the connection before it gets here.
  func handleNotification(_ method: String, params: FlowValue?, connection: RPCConnection)
  /// The peer's side is gone: its output ended, or it wrote something that is not a message.
  func connectionClosed(_ reason: RPCConnection.CloseReason)
}

extension RPCHandler {
  public func handleNotification(_ method: String, params: FlowValue?, connection: RPCConnection) {}
  public func connectionClosed(_ reason: RPCConnection.CloseReason) {}
}

/// How a connection's messages travel: a pair of pipes, one message per line (MCP's stdio transport,
/// ``PipeWire``), or Streamable HTTP. The connection routes messages; the wire only moves them.
public protocol RPCWire: Sendable {
  /// Begins delivering the peer's messages to `connection.receive(_:)` and, once the peer is gone,
  /// calls `connection.finish(_:)` once.
  func start(_ connection: RPCConnection)
  /// Sends one message; false when the peer is gone. `request` is the id of the peer's request the
  /// message belongs to (an answer, or a server's elicitation or progress during a `tools/call`): stdio
  /// ignores it, Streamable HTTP sends such messages on that request's event stream.
  func send(_ message: RPCMessage, relatedTo request: RPCID?) -> Bool
  /// Closes this side's output (for a client over stdio: the server's stdin, the polite way to ask it to exit).
  func closeOutput()
  /// The connection is done with the peer's request `request`: its answer has been sent, or it was
  /// withdrawn and gets none. Streamable HTTP then ends that request's event stream, which nothing
  /// else would end for a withdrawn request; stdio has nothing to do.
  func requestEnded(_ request: RPCID)
}

extension RPCWire {
  public func requestEnded(_ request: RPCID) {}
}

/// JSON-RPC 2.0 between two peers, over any ``RPCWire``.
///
/// Sends requests and matches their answers by id (`request` suspends until its answer), answers the
/// peer's requests through an `RPCHandler`, and turns task cancellation into `notifications/cancelled`
/// both ways.
public final class RPCConnection: Sendable {
  /// Why a connection ended.
  public enum CloseReason: Sendable, Hashable, CustomStringConvertible {
    /// The peer closed its output (a server that exited, or a client that hung up).
    case endOfInput
    /// The peer wrote a line that is not a JSON-RPC message (with a strict `invalidLines` policy).
    case invalidLine(line: String, problem: String)
    /// `close()` was called on this side.
    case closedHere

    public var description: String {
      switch self {
      case .endOfInput: "the connection ended"
      case .invalidLine(let line, let problem):
        "it wrote something that is not JSON-RPC (\(problem)): \(line.count > 120 ? String(line.prefix(120)) + "…" : line)"
      case .closedHere: "the connection was closed"
      }
    }
  }

  /// What to do with a line that is not a message: a client stops (a server's stdout belongs to the
  /// protocol, so anything else there means the wrong program or a broken one), a server answers with
  /// JSON-RPC's parse error and goes on, as the specification asks.
  public enum InvalidLinePolicy: Sendable { case close, answerParseError }

  /// The error a request throws when the connection ends before its answer.
  public struct Closed: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: CloseReason
    public var description: String { reason.description }
  }

  private struct State {
    var nextID = 1
    var pending: [RPCID: CheckedContinuation<FlowValue, any Error>] = [:]
    var incoming: [RPCID: Task<Void, Never>] = [:]
    /// The peer's requests not answered yet, by arrival, until their answer is written (``waitUntilAnswered()``).
    var answering: [Int: Task<Void, Never>] = [:]
    var arrived = 0
    var closed: CloseReason?
    /// Whether `finish` has run.
    var finished = false
  }

  private let wire: any RPCWire
  private let handler: any RPCHandler
  private let state = Mutex(State())
  /// The tasks waiting for the end; nil once the connection has finished.
  private let finished = Mutex<[CheckedContinuation<Void, Never>]?>([])

  /// A connection over `wire`. Call `start()`.
  public init(wire: any RPCWire, handler: any RPCHandler) {
    self.wire = wire
    self.handler = handler
  }

  /// A connection reading `input` and writing `output`, one message per line (``PipeWire``); it owns
  /// both descriptors and closes them.
  public convenience init(
    input: Int32, output: Int32, handler: any RPCHandler, invalidLines: InvalidLinePolicy = .close
  ) {
    self.init(wire: PipeWire(input: input, output: output, invalidLines: invalidLines), handler: handler)
  }

  /// Starts receiving the peer's messages.
  public func start() { wire.start(self) }

  /// The peer's request whose handler is running in this task (and the tasks it starts): what a request
  /// or notification sent from inside a handler belongs to, unless it says otherwise.
  @TaskLocal public static var handling: RPCID?

  /// Sends a request and waits for its answer. Cancelling the calling task withdraws the request: the
  /// peer gets `notifications/cancelled` with `reason`, and this throws `CancellationError`. `request`
  /// names the peer's request this one is made for (see ``RPCWire/send(_:relatedTo:)``); by default
  /// the one being handled, ``handling``.
  public func request(
    _ method: String, params: FlowValue? = nil, relatedTo request: RPCID? = RPCConnection.handling,
    cancelReason: String = "cancelled"
  ) async throws -> FlowValue {
    let id = state.withLock { state -> RPCID in
      defer { state.nextID += 1 }
      return .number(state.nextID)
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FlowValue, any Error>) in
        let refusal: (any Error)? = state.withLock { state in
          if let reason = state.closed { return Closed(reason: reason) }
          if Task.isCancelled { return CancellationError() }
          state.pending[id] = continuation
          return nil
        }
        if let refusal {
          continuation.resume(throwing: refusal)
          return
        }
        if !send(.request(id: id, method: method, params: params), relatedTo: request) {
          if let waiting = state.withLock({ $0.pending.removeValue(forKey: id) }) {
            waiting.resume(throwing: Closed(reason: .endOfInput))
          }
        }
      }
    } onCancel: {
      if let waiting = state.withLock({ $0.pending.removeValue(forKey: id) }) {
        waiting.resume(throwing: CancellationError())
        notify(
          "notifications/cancelled",
          params: ["requestId": id.value, "reason": .text(cancelReason)], relatedTo: request)
      }
    }
  }

  /// Sends a notification; false when the peer is gone.
  @discardableResult
  public func notify(
    _ method: String, params: FlowValue? = nil, relatedTo request: RPCID? = RPCConnection.handling
  ) -> Bool {
    send(.notification(method: method, params: params), relatedTo: request)
  }

  /// Sends one message through the wire.
  @discardableResult
  public func send(_ message: RPCMessage, relatedTo request: RPCID? = nil) -> Bool {
    wire.send(message, relatedTo: request)
  }

  /// Closes this side's output. Requests still waiting fail with `Closed`; the connection finishes
  /// when the peer closes its side.
  public func close() {
    let waiting = state.withLock { state -> [CheckedContinuation<FlowValue, any Error>] in
      if state.closed == nil { state.closed = .closedHere }
      defer { state.pending.removeAll() }
      return Array(state.pending.values)
    }
    wire.closeOutput()
    for continuation in waiting { continuation.resume(throwing: Closed(reason: .closedHere)) }
  }

  /// Why the connection ended, once it has.
  public var closeReason: CloseReason? { state.withLock { $0.closed } }

  /// Waits until the connection has finished: the peer's side has ended.
  public func waitUntilFinished() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = finished.withLock { waiters -> Bool in
        guard var list = waiters else { return true }
        list.append(continuation)
        waiters = list
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Waits until every request the peer sent has been answered (or withdrawn): a server whose client
  /// hangs up right after a request (`echo '{…}' | flow mcp`) still owes it the answer before it exits.
  public func waitUntilAnswered() async {
    while let task = state.withLock({ $0.answering.values.first }) { await task.value }
  }

  // MARK: - Receiving

  /// Handles one message from the peer; the wire calls it in the order messages arrive.
  public func receive(_ message: RPCMessage) {
    dispatch(message)
  }

  private func dispatch(_ message: RPCMessage) {
    switch message {
    case .response(let id, let result):
      state.withLock { $0.pending.removeValue(forKey: id) }?.resume(returning: result)
    case .error(let id, let error):
      guard let id else { return }
      state.withLock { $0.pending.removeValue(forKey: id) }?.resume(throwing: error)
    case .notification(let method, let params):
      if method == "notifications/cancelled", case .dictionary(let fields)? = params,
        let raw = fields["requestId"], let id = RPCID(raw)
      {
        state.withLock { $0.incoming[id] }?.cancel()
        return
      }
      handler.handleNotification(method, params: params, connection: self)
    case .request(let id, let method, let params):
      let handler = handler
      // Registered under the lock before the task can run, so a quick answer always finds its entry.
      state.withLock { current in
        let arrival = current.arrived
        current.arrived += 1
        let task = Task { [self] in
          defer { _ = state.withLock { $0.answering.removeValue(forKey: arrival) } }
          let answer: RPCMessage
          do {
            answer = .response(
              id: id,
              result: try await RPCConnection.$handling.withValue(id) {
                try await handler.handleRequest(method, params: params, id: id, connection: self)
              })
          } catch let error as RPCError {
            answer = .error(id: id, error)
          } catch {
            answer = .error(id: id, RPCError(code: RPCError.internalError, message: String(describing: error)))
          }
          let cancelled = state.withLock { $0.incoming.removeValue(forKey: id) == nil } || Task.isCancelled
          // A request the peer withdrew gets no answer (the specification's SHOULD).
          if !cancelled { send(answer, relatedTo: id) }
          wire.requestEnded(id)
        }
        current.incoming[id] = task
        current.answering[arrival] = task
      }
    }
  }

  /// The peer's side is gone: requests still waiting fail, and this side closes its output once the
  /// peer's requests are answered. The wire calls it once; later calls do nothing.
  public func finish(_ reason: CloseReason) {
    guard
      state.withLock({ state in
        defer { state.finished = true }; return !state.finished
      })
    else { return }
    let waiting = state.withLock { state -> [CheckedContinuation<FlowValue, any Error>] in
      if state.closed == nil { state.closed = reason }
      defer { state.pending.removeAll() }
      return Array(state.pending.values)
    }
    let finalReason = state.withLock { $0.closed } ?? reason
    for continuation in waiting { continuation.resume(throwing: Closed(reason: finalReason)) }
    // The peer is gone, so this side hangs up too, so that a peer waiting for our end (a server's reader)
    // ends; but only once the requests it sent are answered: a client that hangs up right after asking
    // (`echo '{…}' | flow mcp`) still gets its answers.
    if state.withLock({ $0.answering.isEmpty }) {
      wire.closeOutput()
    } else {
      Task {
        await self.waitUntilAnswered()
        self.wire.closeOutput()
      }
    }
    handler.connectionClosed(finalReason)
    let waiters = finished.withLock { waiters -> [CheckedContinuation<Void, Never>] in
      defer { waiters = nil }
      return waiters ?? []
    }
    for waiter in waiters { waiter.resume() }
  }
}
