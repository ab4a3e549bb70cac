import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import FlowModel
import FlowRuntime
import FoundationEssentials
import Synchronization

/// The MCP servers of one run: each started on first use (one process per server per run), checked against
/// its tool cache when it connects, and shut down when the run ends. A run's dependency
/// (`IntentContext`), so that only runs that call a tool ever start anything.
public final class ServerSessions: Sendable {
  private let paths: FlowPaths
  private let prompter: any Prompter
  private let environment: [String: String]
  private let started = Mutex<[String: Task<MCPClient, any Error>]>([:])
  /// A question a server asked that nobody could answer: the step fails with it (exit 4), not with
  /// whatever the server makes of the refusal.
  public let unanswered = Mutex<(any Error)?>(nil)

  /// Reads nothing until a server is needed: runs that call no tool pay nothing.
  public init(paths: FlowPaths, prompter: any Prompter, environment: [String: String]) {
    self.paths = paths
    self.prompter = prompter
    self.environment = environment
  }

  /// The tools `workflow`'s own steps call, by server (`time.get_current_time` is `time`'s
  /// `get_current_time`): every id that is not built in and has a dot.
  public static func toolUses(in workflow: Workflow, builtIn: IntentRegistry) -> [String: Set<String>] {
    var uses: [String: Set<String>] = [:]
    StepWalk.walk(workflow.steps) { visit in
      guard case .action(let call) = visit.step.kind else { return }
      uses.merge(toolUses(of: call.id.value, builtIn: builtIn)) { $0.union($1) }
    }
    return uses
  }

  /// The server's tool an action id names, as ``toolUses(in:builtIn:)`` gives it; empty for a built-in action.
  public static func toolUses(of id: String, builtIn: IntentRegistry) -> [String: Set<String>] {
    guard let dot = id.firstIndex(of: "."), (try? builtIn.descriptor(for: id)) == nil else { return [:] }
    return [String(id[..<dot]): [String(id[id.index(after: dot)...])]]
  }

  /// Runs `body` once the servers of `uses` are started and compared with their caches (a stale cache
  /// stops it before it begins), then shuts down every server started meanwhile, however it ended: a
  /// run's servers end with the run, and a `flow mcp` call's with the call.
  public func serving<T>(_ uses: [String: Set<String>], _ body: () async throws -> T) async throws -> T {
    do {
      if !uses.isEmpty { try await connect(uses) }
      let value = try await body()
      await shutdown()
      return value
    } catch {
      await shutdown()
      throw error
    }
  }

  /// Starts the servers a run's own steps use and compares their tools with the caches, before step 1:
  /// a tool that is gone or changed stops the run here rather than in the middle. Their tools
  /// (`name.tool`) restrict the comparison to what the run calls.
  public func connect(_ uses: [String: Set<String>]) async throws(RunError) {
    var problems: [Diagnostic] = []
    var unreachable = false
    for (name, tools) in uses.sorted(by: { $0.key < $1.key }) {
      do {
        _ = try await client(name, checking: tools)
      } catch {
        problems.append(Self.diagnostic(error))
        unreachable = unreachable || (error as? MCPClient.Failure)?.isUnreachable == true
      }
    }
    if !problems.isEmpty { throw RunError(unreachable ? .backendUnavailable : .invalid, Diagnostics(problems)) }
  }

  /// The server's client, started (and its cache compared for `checking`) the first time.
  public func client(_ name: String, checking tools: Set<String> = []) async throws -> MCPClient {
    let task = started.withLock { started in
      if let task = started[name] { return task }
      let task = Task { try await self.start(name, checking: tools) }
      started[name] = task
      return task
    }
    return try await task.value
  }

  private func start(_ name: String, checking tools: Set<String>) async throws -> MCPClient {
    let configuration: Configuration
    do { configuration = try Configuration.load(paths.configFile) } catch { throw RunError(.invalid, error) }
    guard let server = configuration.server(named: name) else {
      throw StaleCache(
        message: "no server named '\(name)' is configured here",
        help: "add it with 'flow servers add \(name) -- COMMAND [ARGS...]'")
    }
    let client = try await ServerStarter.start(server, environment: environment) { [prompter, self] question in
      do {
        return try await ElicitationPrompts.answer(question, server: name, prompter: prompter)
      } catch {
        self.unanswered.withLock { $0 = error }
        return ["action": "cancel"]
      }
    }
    if let cache = ToolCacheFile.read(name, paths: paths) {
      let current = try await client.listTools()
      if let problem = cache.staleness(against: current, using: tools) {
        client.shutdown(grace: .milliseconds(500))
        throw StaleCache(
          message: "the cached tools of server '\(name)' no longer match the server: \(problem)",
          help: "run 'flow servers refresh \(name)', then check the workflow again with 'flow validate'")
      }
    }
    return client
  }

  /// Shuts every started server down (stdin closed, SIGTERM after a grace period, then SIGKILL).
  public func shutdown() async {
    let tasks = started.withLock { started in
      defer { started.removeAll() }
      return Array(started.values)
    }
    for task in tasks {
      if let client = try? await task.value { client.shutdown() }
    }
  }

  public static func diagnostic(_ error: any Error) -> Diagnostic {
    switch error {
    case let run as RunError:
      return run.diagnostics.all.first ?? Diagnostic(.error, "server-failed", "server failed", file: nil)
    case let stale as StaleCache:
      return Diagnostic(.error, "stale-server-cache", stale.message, file: nil).help(stale.help)
    case let failure as MCPClient.Failure:
      return Diagnostic(.error, "server-failed", failure.description, file: nil).help(
        ServerStarter.stderrHelp(failure.stderr))
    default:
      return Diagnostic(.error, "server-failed", String(describing: error), file: nil)
    }
  }
}

/// A cache that no longer describes the server, or a server a run needs that is not configured.
public struct StaleCache: Error, CustomStringConvertible {
  public var message: String
  public var help: String?
  public var description: String { message }
}

/// Starting a configured server, for runs and for `flow servers add|refresh`.
public enum ServerStarter {
  public static func start(
    _ server: ServerConfiguration, environment: [String: String],
    elicit: (@Sendable (MCPClient.Elicitation) async throws -> FlowValue)? = nil
  ) async throws -> MCPClient {
    // Through the one duration parser: a number too large for a Duration is refused, not converted.
    let timeout = environment["FLOW_MCP_START_TIMEOUT"].flatMap(DurationParsing.parse)
    switch server.transport {
    case .stdio(let command, let arguments, let extra):
      return try await MCPClient.start(
        name: server.name, command: command, arguments: arguments, environment: extra,
        initializeTimeout: timeout ?? .seconds(30), elicit: elicit)
    case .http(let address, let headerEnvironment):
      guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
        url.host != nil
      else {
        throw MCPClient.Failure(
          server: server.name, command: address, message: "has a URL that is not http:// or https://", stderr: [])
      }
      // Header values are read here, at run time: config.yml names only the variables.
      if let (header, variable) = unsetHeaders(of: server, in: environment).first {
        throw MCPClient.Failure(
          server: server.name, command: address, message: unsetHeaderMessage(header, variable), stderr: [],
          isUnreachable: true)
      }
      let headers = headerEnvironment.compactMapValues { environment[$0] }
      return try await MCPClient.connect(
        name: server.name, url: url, headers: headers, headerSources: headerEnvironment,
        initializeTimeout: timeout ?? .seconds(30), elicit: elicit)
    }
  }

  /// The headers of a Streamable HTTP server whose environment variable is unset or empty, by header name.
  public static func unsetHeaders(of server: ServerConfiguration, in environment: [String: String]) -> [(
    String, String
  )] {
    guard case .http(_, let headerEnvironment) = server.transport else { return [] }
    return headerEnvironment.sorted { $0.key < $1.key }.filter { environment[$0.value]?.isEmpty ?? true }
      .map { ($0.key, $0.value) }
  }

  public static func unsetHeaderMessage(_ header: String, _ variable: String) -> String {
    "needs the header '\(header)' from the environment variable \(variable), which is not set"
  }

  /// What `flow validate` can know before a run: each HTTP server a workflow's steps call whose header
  /// variables are unset here, at its first step. A warning, as a scheduled run may have an environment
  /// of its own; the run itself stops before step 1 (``ServerSessions/connect(_:)``).
  public static func unsetHeaderWarnings(
    in workflow: Workflow, servers: [ServerConfiguration], environment: [String: String]
  )
    -> [Diagnostic]
  {
    // No server configured, nothing to warn of: the walk is not taken.
    guard !servers.isEmpty else { return [] }
    var warned: Set<String> = []
    var warnings: [Diagnostic] = []
    StepWalk.walk(workflow) { visit in
      guard case .action(let call) = visit.step.kind, let dot = call.id.value.firstIndex(of: ".") else { return }
      let name = String(call.id.value[..<dot])
      guard let server = servers.first(where: { $0.name == name }), !warned.contains(name),
        let (header, variable) = unsetHeaders(of: server, in: environment).first
      else { return }
      warned.insert(name)
      warnings.append(
        Diagnostic(
          .warning, "server-failed", "server '\(name)' " + unsetHeaderMessage(header, variable), at: call.id.span
        )
        .help("set \(variable) in the environment the workflow runs in; a run without it stops before step 1"))
    }
    return warnings
  }

  /// The server's last stderr lines as a diagnostic's help.
  public static func stderrHelp(_ lines: [String]) -> String? {
    guard !lines.isEmpty else { return nil }
    return "its stderr ended with:\n" + lines.suffix(8).map { "  " + TerminalSafe.text($0) }.joined(separator: "\n")
  }
}

/// Calling a tool from a step: the arguments as JSON, the answer checked and turned into the step's output.
public enum ToolCall {
  public static func perform(_ tool: MCPTool, server: String, values: [String: FlowValue], context: IntentContext)
    async throws -> IntentOutput
  {
    guard let sessions = context.dependency(ServerSessions.self) else {
      throw AppIntentError.failed("'\(server).\(tool.name)' needs a run that can start MCP servers")
    }
    let client: MCPClient
    do {
      client = try await sessions.client(server)
    } catch {
      let diagnostic = ServerSessions.diagnostic(error)
      if (error as? MCPClient.Failure)?.isUnreachable == true {
        throw AppIntentError.insufficientAccount(diagnostic.message, help: diagnostic.helps.first)
      }
      throw AppIntentError.failed(diagnostic.message, help: diagnostic.helps.first)
    }
    // Arguments in the order the tool declares its parameters; dates and URLs become their text.
    var arguments = FlowDictionary()
    for parameter in SchemaTypes.parameters(of: tool) {
      if let value = values[parameter.key] { arguments[parameter.key] = value }
    }
    let result: MCPClient.ToolResult
    do {
      // The server's progress notifications become the step's progress (the bar at a terminal).
      let progress = context.progress.map { reporter in
        { @Sendable (done: Double, total: Double?, message: String?) in
          reporter.report(ActionProgress(completed: done, total: total, message: message))
        }
      }
      result = try await client.callTool(tool.name, arguments: arguments, progress: progress)
    } catch let failure as MCPClient.Failure {
      if failure.isUnreachable { throw AppIntentError.insufficientAccount(failure.description) }
      throw AppIntentError.failed(failure.description, help: ServerStarter.stderrHelp(failure.stderr))
    }
    if let question = sessions.unanswered.withLock({ error -> (any Error)? in
      defer { error = nil }
      return error
    }) {
      throw question
    }
    if result.isError {
      let message = result.text.isEmpty ? "failed" : result.text
      throw AppIntentError.failed(
        "tool '\(tool.name)' of server '\(server)' failed: \(message)",
        help: ServerStarter.stderrHelp(client.stderrLines))
    }
    guard let outputSchema = tool.outputSchema else { return IntentOutput(value: .text(result.text)) }
    guard let structured = result.structuredContent else {
      throw AppIntentError.failed(
        "tool '\(tool.name)' of server '\(server)' declares an output schema but returned no structured content")
    }
    if let problem = OutputCheck.problem(structured, against: outputSchema) {
      throw AppIntentError.failed(
        "tool '\(tool.name)' of server '\(server)' returned output that does not match its schema: \(problem)")
    }
    if tool.wrapsResult, case .dictionary(let fields) = structured, let value = fields["result"] {
      return IntentOutput(value: value)
    }
    return IntentOutput(value: structured)
  }
}

/// The check of a structured result against `outputSchema`: an object, with every required property
/// present and of its declared JSON type.
public enum OutputCheck {
  public static func problem(_ value: FlowValue, against schema: FlowValue) -> String? {
    guard case .dictionary(let object) = value else { return "expected an object, got \(value.typeName)" }
    guard case .dictionary(let fields) = schema else { return nil }
    var required: [String] = []
    if case .list(let names)? = fields["required"] { required = names.map(\.text) }
    let properties: FlowDictionary
    if case .dictionary(let declared)? = fields["properties"] {
      properties = declared
    } else {
      properties = FlowDictionary()
    }
    for key in required {
      guard let present = object[key] else { return "the required property '\(key)' is missing" }
      guard case .dictionary(let property)? = properties[key], case .text(let type)? = property["type"] else {
        continue
      }
      if !matches(present, type) { return "'\(key)' should be \(type), got \(present.typeName)" }
    }
    return nil
  }

  private static func matches(_ value: FlowValue, _ type: String) -> Bool {
    switch (type, value) {
    case ("string", .text), ("boolean", .boolean), ("array", .list), ("object", .dictionary), ("null", .nothing): true
    case ("number", .number): true
    case ("integer", .number(let number)): number == number.rounded()
    default: false
    }
  }
}
