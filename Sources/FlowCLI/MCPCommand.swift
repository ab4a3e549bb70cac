import ArgumentParser
import FlowDiagnostics
import FlowMCP
import FlowMCPServer
import FlowSession
import FoundationEssentials
import Glibc
import Synchronization

/// `flow mcp`: the library as a Model Context Protocol server, so that any MCP client (Claude Desktop,
/// VS Code, Cursor, an agent) can list the person's workflows as tools and run them
/// (Documentation/MCP.md).
struct MCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "Serve the library's workflows as MCP tools to an assistant.",
    discussion: """
      Speaks the Model Context Protocol on standard input and output, as an MCP client starts it: \
      each workflow in the library becomes a tool (its inputs the tool's arguments, its result the \
      tool's structured output), and a call runs it as 'flow run' would, recorded in run history with \
      trigger 'mcp'. Questions and confirmations go to the client as elicitations; a client that \
      cannot answer them gets an error naming what was needed. Standard output carries only the \
      protocol; everything else goes to standard error. With --http, it serves Streamable HTTP on a \
      loopback address instead (never another: there is no authentication) and prints the endpoint's \
      URL on standard error once it listens; Ctrl-C stops it.
      """
  )

  @Flag(help: "Also offer the built-in and Raindrop.io actions as tools.")
  var actions = false

  @Option(
    help: ArgumentHelp(
      "Serve Streamable HTTP on this loopback address instead (':PORT' or 'PORT' is 127.0.0.1; port 0 picks a free one).",
      valueName: "HOST:PORT"))
  var http: String?

  /// How many tools one `tools/list` answer holds; the rest follow by cursor. Hidden: for the tests of
  /// pagination, which would otherwise need hundreds of workflows.
  @Option(help: .hidden)
  var pageSize = 500

  @OptionGroup var options: ActionOptions

  func validate() throws {
    guard pageSize > 0 else { throw ValidationError("--page-size must be at least 1") }
  }

  func run() async throws {
    let context = SessionContext.current
    if let http { return try await serveHTTP(http, context: context) }
    let (input, output) = Self.takeStandardStreams()
    let server = MCPServer(context: context, options: options.settings, actions: actions, pageSize: pageSize)
    let connection = RPCConnection(input: input, output: output, handler: server, invalidLines: .answerParseError)
    context.console.write(
      "flow mcp: serving the workflows in \(context.paths.workflows.path) on standard input and output\n", to: .error)
    connection.start()
    let stop = Stop()
    Task {
      await connection.waitUntilFinished()
      stop.fire()
    }
    // Ctrl-C or SIGTERM cancels this task: running calls are cancelled and recorded as such.
    await withTaskCancellationHandler {
      await stop.wait()
    } onCancel: {
      stop.fire()
    }
    // A client that hangs up wants the server gone: what is running is cancelled (and recorded so),
    // and what it asked before hanging up is still answered.
    server.cancelAll()
    await server.drain()
    await connection.waitUntilAnswered()
    if Task.isCancelled { throw ExitCode(ExitStatus.cancelled.rawValue) }
  }

  /// `--http`: the same handler, one per session, over Streamable HTTP on a loopback address. Runs
  /// until Ctrl-C or SIGTERM, which cancels the calls running (recorded so) and exits 3, as for stdio.
  private func serveHTTP(_ text: String, context: SessionContext) async throws {
    let address: LoopbackAddress
    do {
      address = try LoopbackAddress(parsing: text)
    } catch {
      var diagnostic = Diagnostic(.error, .mcpAddress, "--http \(error.message)", file: nil)
      if let help = error.help { diagnostic = diagnostic.help(help) }
      context.report(Diagnostics([diagnostic]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    // Every session's handler, so that stopping can wait until each call has been recorded.
    let handlers = Mutex<[MCPServer]>([])
    let (options, actions, pageSize) = (options, actions, pageSize)
    let server: StreamableHTTPServer
    do {
      server = try StreamableHTTPServer(
        address: address, options: .init(protocolVersions: MCPServer.protocolVersions)
      ) {
        let handler = MCPServer(context: context, options: options.settings, actions: actions, pageSize: pageSize)
        handlers.withLock { $0.append(handler) }
        return handler
      }
    } catch {
      context.report(Diagnostics([Diagnostic(.error, .mcpAddress, error.description, file: nil)]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    server.start()
    // One line whose last word is the endpoint, for the person and for scripts that start flow mcp.
    context.console.write(
      "flow mcp: serving the workflows in \(context.paths.workflows.path) at \(server.url)\n", to: .error)
    let stop = Stop()
    await withTaskCancellationHandler {
      await stop.wait()
    } onCancel: {
      stop.fire()
    }
    // The calls are cancelled before their sessions end, so that each run ends as cancelled (and a
    // question it is waiting on is withdrawn) rather than failing on a connection that went away.
    for handler in handlers.withLock({ $0 }) { handler.cancelAll() }
    server.stop()
    for handler in handlers.withLock({ $0 }) {
      handler.cancelAll()
      await handler.drain()
    }
    server.closeConnections()
    throw ExitCode(ExitStatus.cancelled.rawValue)
  }

  /// Gives the protocol descriptors of its own and takes standard input and output away from
  /// everything else: standard output becomes standard error and standard input `/dev/null`. Whatever
  /// writes to standard output (a library, a program a step starts, which inherits it) then lands on
  /// standard error, and nothing but the connection reads the client's messages. The protocol's
  /// descriptors close on exec, so no child holds the client's pipe open.
  static func takeStandardStreams() -> (input: Int32, output: Int32) {
    let input = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
    let output = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
    if null >= 0 {
      dup2(null, STDIN_FILENO)
      close(null)
    }
    dup2(STDERR_FILENO, STDOUT_FILENO)
    return (input, output)
  }

  /// Fires once, from whichever comes first: the client hanging up or the command being cancelled.
  private final class Stop: Sendable {
    private let state = Mutex<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func fire() {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        state.fired = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume()
    }

    func wait() async {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let fired = state.withLock { state -> Bool in
          if !state.fired { state.waiter = continuation }
          return state.fired
        }
        if fired { continuation.resume() }
      }
    }
  }
}

extension DiagnosticCode {
  /// `flow mcp --http` was given an address it does not listen on (not loopback, no port, taken).
  public static let mcpAddress: Self = "mcp-address"
}
