import ArgumentParser
import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import FlowSession
import FoundationEssentials

/// `flow servers`: MCP servers whose tools become actions `NAME.TOOL` (issue 15, Documentation/MCP.md).
struct ServersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "servers",
    abstract: "Add MCP servers, whose tools become actions named SERVER.TOOL.",
    discussion: """
      Servers are kept in config.yml under 'servers:'; only that file says what command a name starts, \
      and shared workflows only name servers. Each server's tool list is cached in \
      $XDG_STATE_HOME/flow/servers, so validate, show, actions and schema never start a server; \
      'flow servers refresh' updates the cache.
      """,
    subcommands: [
      ServersAddCommand.self, ServersListCommand.self, ServersShowCommand.self, ServersRemoveCommand.self,
      ServersRefreshCommand.self, ServersImportCommand.self,
    ]
  )

  /// The configuration, or the diagnostic of its first problem.
  static func configuration(_ context: SessionContext) throws -> Configuration {
    do {
      return try Configuration.load(context.paths.configFile)
    } catch {
      throw Library.fail(error, context)
    }
  }

  /// Writes `servers` into config.yml, keeping the rest of the file as it is.
  static func save(_ servers: [ServerConfiguration], _ context: SessionContext) throws {
    let url = context.paths.configFile
    var text = ""
    if case .success(let bytes) = RegularFile.read(url.path, limit: 1 << 20) {
      text = String(decoding: bytes, as: UTF8.self)
    }
    do {
      try PrivateFiles.ensureDirectory(url.deletingLastPathComponent())
      try PrivateFiles.write(Data(Configuration.replacingServers(in: text, with: servers).utf8), to: url)
    } catch {
      throw Library.fail(Diagnostic(.error, "config-not-written", error.description, file: url.path), context)
    }
    Catalogs.forgetServers(context.paths)
  }

  /// Starts the server, lists its tools, writes the cache and shuts it down; the cache it wrote.
  static func refresh(_ server: ServerConfiguration, _ context: SessionContext) async throws -> ToolCache {
    do {
      let client = try await ServerStarter.start(server, environment: context.environment)
      defer { client.shutdown(grace: .milliseconds(500)) }
      let tools = try await client.listTools()
      let cache = ToolCache(
        serverName: client.serverName, serverVersion: client.serverVersion, protocolVersion: client.protocolVersion,
        source: server.commandLine, tools: tools)
      try ToolCacheFile.write(cache, name: server.name, paths: context.paths)
      Catalogs.forgetServers(context.paths)
      return cache
    } catch {
      let exit = Library.fail(ServerSessions.diagnostic(error), context)
      // An HTTP server that cannot be reached or refuses the credentials: "backend unreachable or
      // unauthorised", as for Raindrop.io.
      if (error as? MCPClient.Failure)?.isUnreachable == true { throw ExitCode(ExitStatus.backendUnavailable.rawValue) }
      throw exit
    }
  }

  static func unknown(_ name: String, _ configuration: Configuration, _ context: SessionContext) -> ExitCode {
    let names = configuration.servers.map(\.name)
    return Library.fail(
      Diagnostic(.error, "unknown-server", "no server named '\(name)' is configured here", file: nil)
        .help(
          Suggestion.closest(to: name, among: names).map { "did you mean '\($0)'?" }
            ?? "add it with 'flow servers add \(name) -- COMMAND [ARGS...]'"), context)
  }

  /// Refuses a name a server cannot take.
  static func checkName(_ name: String, _ context: SessionContext) throws {
    guard ServerConfiguration.isValidName(name) else {
      throw Library.fail(
        Diagnostic(.error, "invalid-server-name", "'\(name)' cannot name a server", file: nil)
          .help("use lower-case letters, digits and '-', starting with a letter"), context)
    }
    guard !ServerConfiguration.reservedNames.contains(name) else {
      throw Library.fail(
        Diagnostic(.error, "invalid-server-name", "'\(name)' is the name of a catalogue flow ships", file: nil)
          .help("choose another name"), context)
    }
  }

  /// One line per tool: `time.get_current_time  Get current time  (read-only, according to the server)`, and
  /// `may contact other hosts` for a tool whose `openWorldHint` is not false.
  static func toolLines(_ cache: ToolCache, server: String) -> [String] {
    let width = (cache.tools.map { server.count + 1 + $0.name.count }.max() ?? 0) + 2
    return cache.tools.map { tool in
      let id = "\(server).\(tool.name)"
      return id + String(repeating: " ", count: width - id.count) + tool.displayTitle
        + "  (\(ActionsReference.words(tool.sideEffect))\(tool.isOpenWorld ? ", may contact other hosts" : ""), "
        + "according to the server)"
    }
  }
}
