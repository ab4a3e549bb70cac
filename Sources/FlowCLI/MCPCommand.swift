import ArgumentParser
import FlowDiagnostics
import FlowMCP
import Foundation
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
      protocol; everything else goes to standard error.
      """
  )

  @Flag(help: "Also offer the built-in and Raindrop.io actions as tools.")
  var actions = false

  @Option(
    help: ArgumentHelp(
      "Serve Streamable HTTP on this loopback address instead (not available yet).", valueName: "HOST:PORT"))
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
    let context = CLIContext.current
    if let http {
      context.report(
        Diagnostics([
          Diagnostic(
            .error, .mcpTransportUnavailable, "Streamable HTTP ('--http \(http)') is not available yet", file: nil
          )
          .help("start 'flow mcp' from the client as a command (stdio); Documentation/MCP.md shows the entries")
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let (input, output) = Self.takeStandardStreams()
    let server = MCPServer(context: context, options: options, actions: actions, pageSize: pageSize)
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
  /// `flow mcp` was asked for a transport it does not serve.
  public static let mcpTransportUnavailable: Self = "mcp-transport-unavailable"
}
