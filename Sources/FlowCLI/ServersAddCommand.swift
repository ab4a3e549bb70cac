import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession

/// `flow servers add NAME -- COMMAND [ARGS...]`: configures a server and caches its tools.
struct ServersAddCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Add a server: NAME -- COMMAND [ARGS...] (stdio), or NAME --url URL (Streamable HTTP).",
    discussion: """
      Starts the server once to list its tools, caches them, and stops it. The tools are then actions \
      NAME.TOOL in every workflow ('flow actions NAME' lists them).
      """)

  @Argument(help: ArgumentHelp("The name workflows write before a tool: NAME.TOOL.", valueName: "NAME"))
  var name: String

  @Option(help: ArgumentHelp("A Streamable HTTP server's address instead of a command.", valueName: "URL"))
  var url: String?

  @Option(
    name: .customLong("header-env"),
    help: ArgumentHelp("An HTTP header whose value is read from an environment variable.", valueName: "HEADER=VAR"))
  var headerEnv: [String] = []

  @Option(
    name: .customLong("env"), help: ArgumentHelp("An environment variable for the command.", valueName: "NAME=VALUE"))
  var environment: [String] = []

  @Flag(help: "Replace a server of the same name.")
  var replace = false

  @Argument(
    parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after '--'.", valueName: "COMMAND"))
  var command: [String] = []

  func run() async throws {
    let context = SessionContext.current
    try ServersCommand.checkName(name, context)
    var configuration = try ServersCommand.configuration(context)
    if configuration.server(named: name) != nil, !replace {
      throw Library.fail(
        Diagnostic(.error, "server-exists", "a server named '\(name)' is already configured", file: nil)
          .help("use --replace to replace it, or 'flow servers remove \(name)'"), context)
    }
    let server: ServerConfiguration
    if let url {
      guard command.isEmpty else {
        throw Library.fail(
          Diagnostic(.error, "usage", "give a command after '--' or --url, not both", file: nil), context)
      }
      var headers: [String: String] = [:]
      for pair in headerEnv {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
          throw Library.fail(
            Diagnostic(.error, "usage", "--header-env takes HEADER=VAR, got '\(pair)'", file: nil), context)
        }
        headers[parts[0]] = parts[1]
      }
      server = ServerConfiguration(name: name, transport: .http(url: url, headerEnvironment: headers))
    } else {
      guard let executable = command.first else {
        throw Library.fail(
          Diagnostic(.error, "usage", "'flow servers add' needs a command after '--', or --url", file: nil)
            .help("for example: flow servers add time -- uvx mcp-server-time"), context)
      }
      var variables: [String: String] = [:]
      for pair in environment {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
          throw Library.fail(Diagnostic(.error, "usage", "--env takes NAME=VALUE, got '\(pair)'", file: nil), context)
        }
        variables[parts[0]] = parts[1]
      }
      server = ServerConfiguration(
        name: name,
        transport: .stdio(command: executable, arguments: Array(command.dropFirst()), environment: variables))
    }
    // The tools first: a server that does not start is not added.
    let cache = try await ServersCommand.refresh(server, context)
    configuration.servers.removeAll { $0.name == name }
    configuration.servers.append(server)
    try ServersCommand.save(configuration.servers, context)
    let identity = [cache.serverName, cache.serverVersion].filter { !$0.isEmpty }.joined(separator: " ")
    context.print("added '\(name)': \(identity), \(Count.of(cache.tools.count, "tool"))")
    for line in ServersCommand.toolLines(cache, server: name) { context.print("  " + line) }
  }
}
