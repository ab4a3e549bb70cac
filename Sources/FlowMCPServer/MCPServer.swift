import FlowDiagnostics
import FlowIntents
import FlowMCP
import FlowSession
import FoundationEssentials
import Synchronization

/// `flow mcp`'s side of the Model Context Protocol: the lifecycle (`initialize`, `ping`), `tools/list`
/// with pagination and `tools/call`, over the JSON-RPC connection FlowMCP keeps (which also cancels a
/// call's task when the client sends `notifications/cancelled`).
public final class MCPServer: RPCHandler {
  /// The protocol revisions flow speaks, newest first: a client asking for one of them gets it, any
  /// other gets the newest, as the specification's negotiation says.
  public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

  public let context: SessionContext
  public let options: ActionSettings
  public let tools: MCPTools
  /// How many tools one `tools/list` answer holds before it gives a cursor for the rest.
  public let pageSize: Int

  private struct State {
    var protocolVersion = MCPServer.protocolVersions[0]
    /// The client declared `elicitation` in form mode.
    var elicits = false
    /// The calls running, by a number of their own, so that a client that goes away cancels them and
    /// the server ends only once each has been recorded.
    var calls: [Int: Task<FlowValue, any Error>] = [:]
    var nextCall = 0
    var closed = false
  }
  private let state = Mutex(State())

  public init(context: SessionContext, options: ActionSettings, actions: Bool, pageSize: Int) {
    self.context = context
    self.options = options
    self.tools = MCPTools(context: context, actions: actions)
    self.pageSize = pageSize
  }

  public func handleRequest(_ method: String, params: FlowValue?, id: RPCID, connection: RPCConnection) async throws
    -> FlowValue
  {
    let params = params?.fields ?? FlowDictionary()
    switch method {
    case "initialize": return initialize(params)
    case "ping": return .dictionary(FlowDictionary())
    case "tools/list": return try list(params)
    case "tools/call": return try await call(params, id: id, connection: connection)
    default: throw RPCError.methodNotFound(method)
    }
  }

  public func connectionClosed(_ reason: RPCConnection.CloseReason) {
    cancelAll()
  }

  /// Cancels every running call: the client is gone, or flow was told to stop.
  public func cancelAll() {
    let calls = state.withLock { state in
      state.closed = true
      return Array(state.calls.values)
    }
    for call in calls { call.cancel() }
  }

  /// Waits until every call has ended (and so been recorded in history).
  public func drain() async {
    while true {
      let calls = state.withLock { state in
        defer { state.calls.removeAll() }
        return Array(state.calls.values)
      }
      if calls.isEmpty { return }
      for call in calls { _ = await call.result }
    }
  }

  // MARK: - Lifecycle

  private func initialize(_ params: FlowDictionary) -> FlowValue {
    let asked = params["protocolVersion"]?.string ?? ""
    let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
    // `elicitation: {}` is form mode (2025-06-18); 2025-11-25 may name its modes, and a client that
    // offers only URL mode cannot be sent a form.
    let elicitation = params["capabilities"]?.fields?["elicitation"]?.fields
    let elicits = elicitation.map { $0.isEmpty || $0["form"] != nil } ?? false
    state.withLock {
      $0.protocolVersion = version
      $0.elicits = elicits
    }
    return [
      "protocolVersion": .text(version),
      "capabilities": ["tools": ["listChanged": false]],
      "serverInfo": ["name": "flow", "title": "flow", "version": .text(Sharing.flowVersion)],
      "instructions": .text(
        "Each tool runs one of the user's flow workflows (or, when offered, one flow action). "
          + "Runs are recorded in the user's run history; a tool may ask the user to confirm before it "
          + "changes or deletes something."),
    ]
  }

  // MARK: - Tools

  private func list(_ params: FlowDictionary) throws -> FlowValue {
    let start: Int
    if let cursor = params["cursor"] {
      guard let text = cursor.string, let offset = Int(text), offset >= 0 else {
        throw RPCError(code: RPCError.invalidParams, message: "Invalid cursor")
      }
      start = offset
    } else {
      start = 0
    }
    let version = state.withLock { $0.protocolVersion }
    let all = tools.list()
    let page = all.dropFirst(start).prefix(pageSize)
    var result: FlowDictionary = ["tools": .list(page.map { Self.tool($0.value, for: version) })]
    if start + page.count < all.count { result["nextCursor"] = .text(String(start + page.count)) }
    return .dictionary(result)
  }

  /// A tool as an older revision has it: `title`, `outputSchema` and structured results came with
  /// 2025-06-18, annotations with 2025-03-26.
  private static func tool(_ tool: FlowValue, for version: String) -> FlowValue {
    guard version < "2025-06-18", var fields = tool.fields else { return tool }
    fields["title"] = nil
    fields["outputSchema"] = nil
    if version < "2025-03-26" { fields["annotations"] = nil }
    return .dictionary(fields)
  }

  /// `id` is the call's: what flow sends the client for it (elicitations, progress) says so, and
  /// Streamable HTTP sends it on that call's event stream.
  private func call(_ params: FlowDictionary, id: RPCID, connection: RPCConnection) async throws -> FlowValue {
    guard let name = params["name"]?.string else {
      throw RPCError(code: RPCError.invalidParams, message: "tools/call needs the tool's 'name'")
    }
    guard let target = tools.find(name) else {
      let suggestion = Suggestion.closest(to: name, among: tools.names()).map { "; did you mean '\($0)'?" } ?? ""
      throw RPCError(code: RPCError.invalidParams, message: "Unknown tool: \(name)\(suggestion)")
    }
    var arguments: [String: FlowValue] = [:]
    switch params["arguments"] {
    case nil, .nothing?: break
    case .dictionary(let given)?: for (key, value) in given { arguments[key] = value }
    default: throw RPCError(code: RPCError.invalidParams, message: "a tool's 'arguments' are an object")
    }
    let (version, elicits) = state.withLock { ($0.protocolVersion, $0.elicits) }
    let token = params["_meta"]?.fields?["progressToken"]
    let client = CallingClient(
      elicits: elicits,
      elicit: { message, schema in
        var request: FlowDictionary = ["message": .text(message), "requestedSchema": schema]
        if version >= "2025-11-25" { request["mode"] = "form" }
        let answer = try await connection.request(
          "elicitation/create", params: .dictionary(request), relatedTo: id)
        switch answer.fields?["action"]?.string {
        case "accept": return .accept(answer.fields?["content"]?.fields ?? FlowDictionary())
        case "decline": return .decline
        default: return .cancel
        }
      },
      progress: token.map(Self.progress(connection, call: id))
    )
    // The server's context, without its terminal: questions go to the client, and nothing the run
    // writes reaches standard output, which is the protocol's. The client's `notifications/cancelled`
    // is what stops a run, so Ctrl-C handling (which keeps every run's recorder for the process's exit)
    // is the command's, not each run's.
    var runContext = context
    runContext.handlesInterrupts = false
    let toolCall = MCPToolCall(context: runContext, options: options, client: client)
    let task = Task<FlowValue, any Error> {
      let result =
        switch target {
        case .workflow(let path): await toolCall.runWorkflow(at: path, arguments: arguments)
        case .action(let descriptor): await toolCall.runAction(descriptor, arguments: arguments)
        }
      return result.value
    }
    let number: Int? = state.withLock { state in
      guard !state.closed else { return nil }
      defer { state.nextCall += 1 }
      state.calls[state.nextCall] = task
      return state.nextCall
    }
    guard let number else {
      task.cancel()
      return try await task.value
    }
    defer { _ = state.withLock { $0.calls.removeValue(forKey: number) } }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }
}

extension MCPServer {
  /// Reports a call's progress under the client's token: one step more at each step's start.
  fileprivate static func progress(_ connection: RPCConnection, call: RPCID)
    -> @Sendable (FlowValue) -> @Sendable (Int, String) -> Void
  {
    { token in
      { progress, message in
        let params: FlowValue = [
          "progressToken": token, "progress": .number(Double(progress)), "message": .text(message),
        ]
        connection.notify("notifications/progress", params: params, relatedTo: call)
      }
    }
  }
}

extension FlowValue {
  /// The fields of an object; nil for anything else.
  fileprivate var fields: FlowDictionary? {
    if case .dictionary(let dictionary) = self { return dictionary }
    return nil
  }

  /// The text of a string; nil for anything else.
  fileprivate var string: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}
