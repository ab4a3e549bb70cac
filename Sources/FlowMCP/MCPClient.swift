import FlowIntents
import FoundationEssentials
import Glibc
import Synchronization

/// A connection to one MCP server as a client: initialize (with version negotiation), `tools/list`,
/// `tools/call` with progress and cancellation, elicitation answered through a closure, and shutdown.
public final class MCPClient: Sendable {
  /// The protocol versions flow speaks, newest first; it offers the first and accepts any of them back.
  public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

  /// Something went wrong with the server itself (not a tool's own error): it could not start, did not
  /// answer, crashed, or wrote something that is not the protocol. Names the server and its command.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var server: String
    public var command: String
    public var message: String
    /// The last lines of its stderr.
    public var stderr: [String]
    /// The server could not be reached or refused the credentials (an HTTP server): the run's
    /// "backend unreachable or unauthorised" (exit 5) rather than a failure of the server itself.
    public var isUnreachable: Bool

    public var description: String { "server '\(server)' (\(command)) \(message)" }

    public init(server: String, command: String, message: String, stderr: [String], isUnreachable: Bool = false) {
      self.server = server
      self.command = command
      self.message = message
      self.stderr = stderr
      self.isUnreachable = isUnreachable
    }
  }

  /// A tool call's answer.
  public struct ToolResult: Sendable, Hashable {
    /// The text items of `content`, joined by newlines.
    public var text: String
    public var structuredContent: FlowValue?
    public var isError: Bool
  }

  /// A question the server asks during a call (`elicitation/create`).
  public struct Elicitation: Sendable, Hashable {
    public var message: String
    /// The flat object schema of the answer.
    public var requestedSchema: FlowValue

    public init(message: String, requestedSchema: FlowValue) {
      self.message = message
      self.requestedSchema = requestedSchema
    }
  }

  public let name: String
  public let command: String
  public let serverName: String
  public let serverVersion: String
  public let protocolVersion: String
  private let connection: RPCConnection
  private let process: ServerProcess?
  private let wire: HTTPClientWire?
  private let handler: ClientHandler

  private init(
    name: String, command: String, connection: RPCConnection, process: ServerProcess?, wire: HTTPClientWire?,
    handler: ClientHandler, info: (name: String, version: String, protocolVersion: String)
  ) {
    self.name = name
    self.command = command
    self.connection = connection
    self.process = process
    self.wire = wire
    self.handler = handler
    (serverName, serverVersion, protocolVersion) = info
  }

  /// Starts the server `command arguments` and initializes it; `elicit` answers its questions (nil: the
  /// client does not declare elicitation, and the server must not ask).
  public static func start(
    name: String, command: String, arguments: [String], environment: [String: String] = [:],
    initializeTimeout: Duration = .seconds(30),
    elicit: (@Sendable (Elicitation) async throws -> FlowValue)? = nil
  ) async throws(Failure) -> MCPClient {
    let commandLine = ([command] + arguments).joined(separator: " ")
    let process: ServerProcess
    do {
      process = try ServerProcess(command: command, arguments: arguments, environment: environment)
    } catch {
      throw Failure(server: name, command: commandLine, message: "could not start: \(error.description)", stderr: [])
    }
    let handler = ClientHandler(elicit: elicit)
    let connection = RPCConnection(input: process.output, output: process.input, handler: handler)
    connection.start()
    do {
      let info = try await withTimeout(initializeTimeout) {
        try await initialize(connection, elicitation: elicit != nil)
      }
      return MCPClient(
        name: name, command: commandLine, connection: connection, process: process, wire: nil, handler: handler,
        info: info)
    } catch {
      connection.close()
      let failure = describe(error, server: name, command: commandLine, process: process, wire: nil, starting: true)
      process.terminate(grace: .milliseconds(200))
      throw failure
    }
  }

  /// Connects to the Streamable HTTP server at `url` and initializes it; `headers` go with every
  /// message (`headerSources` names the environment variable each came from, for messages).
  public static func connect(
    name: String, url: URL, headers: [String: String], headerSources: [String: String] = [:],
    initializeTimeout: Duration = .seconds(30),
    elicit: (@Sendable (Elicitation) async throws -> FlowValue)? = nil
  ) async throws(Failure) -> MCPClient {
    let wire = HTTPClientWire(
      url: url, headers: headers, headerSources: headerSources, connectTimeout: min(initializeTimeout, .seconds(10)))
    let handler = ClientHandler(elicit: elicit)
    let connection = RPCConnection(wire: wire, handler: handler)
    connection.start()
    do {
      let info = try await withTimeout(initializeTimeout) {
        try await initialize(connection, elicitation: elicit != nil)
      }
      return MCPClient(
        name: name, command: url.absoluteString, connection: connection, process: nil, wire: wire, handler: handler,
        info: info)
    } catch {
      let failure = describe(
        error, server: name, command: url.absoluteString, process: nil, wire: wire, starting: true)
      connection.close()
      throw failure
    }
  }

  private static func initialize(_ connection: RPCConnection, elicitation: Bool) async throws -> (
    name: String, version: String, protocolVersion: String
  ) {
    var capabilities = FlowDictionary()
    if elicitation { capabilities["elicitation"] = [:] }
    let answer = try await connection.request(
      "initialize",
      params: [
        "protocolVersion": .text(protocolVersions[0]), "capabilities": .dictionary(capabilities),
        "clientInfo": ["name": "flow", "version": "1"],
      ])
    let fields = answer.dictionaryFields
    let version = fields["protocolVersion"]?.text ?? ""
    guard protocolVersions.contains(version) else {
      throw RPCError(
        code: 0,
        message: "speaks protocol version '\(version)', and flow speaks \(protocolVersions.joined(separator: ", "))")
    }
    connection.notify("notifications/initialized")
    let info = fields["serverInfo"]?.dictionaryFields ?? FlowDictionary()
    return (info["name"]?.text ?? "", info["version"]?.text ?? "", version)
  }

  /// Every tool, following `nextCursor`; a server silent for `timeout` on a page fails, naming itself
  /// (a server that never answers held `flow servers add` and every run's catalogue for good).
  public func listTools(timeout: Duration = .seconds(30)) async throws(Failure) -> [MCPTool] {
    var tools: [MCPTool] = []
    var cursor: FlowValue?
    repeat {
      let answer: FlowValue
      do {
        let (connection, params) = (connection, cursor.map { ["cursor": $0] as FlowValue })
        answer = try await withTimeout(timeout, method: "tools/list") {
          try await connection.request("tools/list", params: params)
        }
      } catch {
        throw failure(error)
      }
      let fields = answer.dictionaryFields
      if case .list(let items)? = fields["tools"] { tools += items.compactMap(MCPTool.init) }
      cursor = fields["nextCursor"].flatMap { $0 == .nothing ? nil : $0 }
    } while cursor != nil
    return tools
  }

  /// Calls a tool. `progress` gets (progress, total, message) from the server's progress notifications.
  /// Cancelling the calling task sends `notifications/cancelled` with `cancelReason`.
  /// Calls `tool`. A server that says nothing for `silence` — no answer, no progress, no question — fails
  /// the call, naming itself: a tool may work for an hour, but not in silence for ten minutes. (A step's
  /// `timeout:` limits the whole call.)
  public func callTool(
    _ tool: String, arguments: FlowDictionary, cancelReason: String = "cancelled",
    silence: Duration = .seconds(600), progress: (@Sendable (Double, Double?, String?) -> Void)? = nil
  ) async throws -> ToolResult {
    let token = handler.register(progress)
    defer { handler.unregister(token) }
    var params: FlowDictionary = ["name": .text(tool), "arguments": .dictionary(arguments)]
    if progress != nil { params["_meta"] = ["progressToken": .number(Double(token))] }
    let answer: FlowValue
    handler.liveness.heard()
    do {
      answer = try await withTimeout(silence, method: "tools/call", liveness: handler.liveness) {
        [connection, params] in
        try await connection.request("tools/call", params: .dictionary(params), cancelReason: cancelReason)
      }
    } catch let error as CancellationError {
      throw error
    } catch {
      throw failure(error)
    }
    let fields = answer.dictionaryFields
    var texts: [String] = []
    if case .list(let items)? = fields["content"] {
      for item in items {
        let content = item.dictionaryFields
        if content["type"] == .text("text"), let text = content["text"] { texts.append(text.text) }
      }
    }
    let structured = fields["structuredContent"].flatMap { $0 == .nothing ? nil : $0 }
    return ToolResult(
      text: texts.joined(separator: "\n"), structuredContent: structured, isError: fields["isError"] == .boolean(true))
  }

  /// The last lines of the server's stderr.
  public var stderrLines: [String] { process?.stderrLines ?? [] }

  /// Closes the server's stdin, then SIGTERM after `grace`, then SIGKILL; its process group ends with it.
  public func shutdown(grace: Duration = .seconds(2)) {
    connection.close()
    process?.terminate(grace: grace)
  }

  private func failure(_ error: any Error) -> Failure {
    Self.describe(error, server: name, command: command, process: process, wire: wire, starting: false)
  }

  private static func describe(
    _ error: any Error, server: String, command: String, process: ServerProcess?, wire: HTTPClientWire?,
    starting: Bool
  ) -> Failure {
    // Over HTTP, what the transport saw says more than the connection's end it caused.
    if let failure = wire?.failure {
      return Failure(
        server: server, command: command, message: failure.message, stderr: [],
        isUnreachable: [.unreachable, .unauthorised].contains(failure.kind))
    }
    let message: String
    switch error {
    case let closed as RPCConnection.Closed:
      switch closed.reason {
      case .invalidLine: message = "wrote something that is not the protocol to its stdout: \(closed.reason)"
      default:
        // Give it a moment to be reaped, so that the message can say how it ended.
        var status = process?.status
        for _ in 0..<100 where status == nil && process != nil {
          usleep(2_000)
          status = process?.status
        }
        let how =
          status.map { $0 > 128 ? "was killed by signal \($0 - 128)" : "exited with status \($0)" }
          ?? "closed its output"
        message = starting ? "\(how) before it finished starting" : how
      }
    case let timedOut as TimedOut:
      message =
        timedOut.method == "initialize"
        ? "did not answer 'initialize' in time"
        : timedOut.method == "tools/call"
          ? "said nothing about 'tools/call' for \(TextPattern.words(timedOut.limit)): no answer, no progress"
          : "did not answer '\(timedOut.method)' within \(TextPattern.words(timedOut.limit))"
    case let rpc as RPCError:
      message = starting ? "refused to start: \(rpc.message)" : "answered with an error: \(rpc.message)"
    default: message = String(describing: error)
    }
    return Failure(server: server, command: command, message: message, stderr: process?.stderrLines ?? [])
  }
}

/// Waiting on a server longer than it should take: what was asked, and how long was waited.
struct TimedOut: Error {
  var method: String
  var limit: Duration
}

/// When a server last showed it is at work — any request or notification from it — and whether it is
/// waiting on the person (an elicitation), which is never the server's silence.
final class Liveness: Sendable {
  private let state = Mutex((heard: ContinuousClock.now, asking: 0))

  func heard() { state.withLock { $0.heard = .now } }

  /// Runs `body`, a question for the person, with the server counted as at work until it is answered.
  func asking<T>(_ body: () async throws -> T) async rethrows -> T {
    state.withLock { $0.asking += 1 }
    defer { state.withLock { $0 = (.now, $0.asking - 1) } }
    return try await body()
  }

  /// When `limit` of silence runs out; nil while the person is being asked.
  func deadline(after limit: Duration) -> ContinuousClock.Instant? {
    state.withLock { $0.asking > 0 ? nil : $0.heard + limit }
  }
}

/// Runs `work`, or throws `TimedOut` after `limit` (and cancels it); with `liveness`, after `limit` in
/// which the server said nothing.
func withTimeout<T: Sendable>(
  _ limit: Duration, method: String = "initialize", liveness: Liveness? = nil,
  _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await work() }
    group.addTask {
      var deadline = ContinuousClock.now + limit
      while true {
        try await Task.sleep(until: deadline, clock: .continuous)
        guard let liveness else { break }
        let next = liveness.deadline(after: limit) ?? .now + limit
        if next <= .now { break }
        deadline = next
      }
      throw TimedOut(method: method, limit: limit)
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw TimedOut(method: method, limit: limit) }
    return first
  }
}

/// The client's side of the server's requests and notifications.
private final class ClientHandler: RPCHandler {
  let elicit: (@Sendable (MCPClient.Elicitation) async throws -> FlowValue)?
  private let progress = Mutex<(next: Int, callbacks: [Int: @Sendable (Double, Double?, String?) -> Void])>((1, [:]))

  let liveness = Liveness()

  init(elicit: (@Sendable (MCPClient.Elicitation) async throws -> FlowValue)?) { self.elicit = elicit }

  func register(_ callback: (@Sendable (Double, Double?, String?) -> Void)?) -> Int {
    progress.withLock { state in
      defer { state.next += 1 }
      if let callback { state.callbacks[state.next] = callback }
      return state.next
    }
  }

  func unregister(_ token: Int) { _ = progress.withLock { $0.callbacks.removeValue(forKey: token) } }

  func handleRequest(_ method: String, params: FlowValue?, id: RPCID, connection: RPCConnection) async throws
    -> FlowValue
  {
    liveness.heard()
    switch method {
    case "ping": return [:]
    case "elicitation/create":
      guard let elicit else { throw RPCError.methodNotFound(method) }
      let fields = params?.dictionaryFields ?? FlowDictionary()
      return try await liveness.asking {
        try await elicit(
          MCPClient.Elicitation(
            message: fields["message"]?.text ?? "", requestedSchema: fields["requestedSchema"] ?? ["type": "object"]))
      }
    default: throw RPCError.methodNotFound(method)
    }
  }

  func handleNotification(_ method: String, params: FlowValue?, connection: RPCConnection) {
    liveness.heard()
    guard method == "notifications/progress" else { return }
    let fields = params?.dictionaryFields ?? FlowDictionary()
    guard case .number(let token)? = fields["progressToken"], case .number(let done)? = fields["progress"] else {
      return
    }
    let callback = progress.withLock { $0.callbacks[Int(token)] }
    var total: Double?
    if case .number(let value)? = fields["total"] { total = value }
    callback?(done, total, fields["message"]?.text)
  }
}
