import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession

/// `flow servers list`: the configured servers, with what each starts and how many tools are cached.
struct ServersListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the configured servers and what each starts.")

  func run() async throws {
    let context = SessionContext.current
    let configuration = try ServersCommand.configuration(context)
    guard !configuration.servers.isEmpty else {
      context.console.write("no servers yet: 'flow servers add NAME -- COMMAND' adds one\n", to: .error)
      return
    }
    let width = (configuration.servers.map(\.name.count).max() ?? 0) + 2
    for server in configuration.servers {
      let cache = ToolCacheFile.read(server.name, paths: context.paths)
      let tools = cache.map { Count.of($0.tools.count, "tool") } ?? "tools not cached"
      context.printShown(
        server.name + String(repeating: " ", count: width - server.name.count) + server.commandLine + "  (\(tools))")
    }
  }
}

/// `flow servers show NAME`: one server's command, identity and tools.
struct ServersShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show a server's command and its cached tools.")

  @Argument(help: ArgumentHelp("The server.", valueName: "NAME"))
  var name: String

  func run() async throws {
    let context = SessionContext.current
    let configuration = try ServersCommand.configuration(context)
    guard let server = configuration.server(named: name) else {
      throw ServersCommand.unknown(name, configuration, context)
    }
    context.printShown("\(server.name): \(server.commandLine)")
    guard let cache = ToolCacheFile.read(name, paths: context.paths) else {
      context.print("tools not cached: run 'flow servers refresh \(name)'")
      return
    }
    context.printShown(
      "server \([cache.serverName, cache.serverVersion].filter { !$0.isEmpty }.joined(separator: " ")), protocol \(cache.protocolVersion)"
    )
    context.print("tools (hash \(cache.hash.prefix(12))):")
    for line in ServersCommand.toolLines(cache, server: name) { context.printShown("  " + line) }
  }
}

/// `flow servers remove NAME`.
struct ServersRemoveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", abstract: "Remove a server and its cached tools.")

  @Argument(help: ArgumentHelp("The server.", valueName: "NAME"))
  var name: String

  func run() async throws {
    let context = SessionContext.current
    var configuration = try ServersCommand.configuration(context)
    guard configuration.server(named: name) != nil else { throw ServersCommand.unknown(name, configuration, context) }
    configuration.servers.removeAll { $0.name == name }
    try ServersCommand.save(configuration.servers, context)
    ToolCacheFile.remove(name, paths: context.paths)
    context.print("removed '\(name)'")
  }
}

/// `flow servers refresh [NAME]`: lists the tools again and rewrites the caches.
struct ServersRefreshCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "refresh", abstract: "Start servers to list their tools again, and update the caches.")

  @Argument(help: ArgumentHelp("The server; every server when left out.", valueName: "NAME"))
  var name: String?

  func run() async throws {
    let context = SessionContext.current
    let configuration = try ServersCommand.configuration(context)
    var servers = configuration.servers
    if let name {
      guard let server = configuration.server(named: name) else {
        throw ServersCommand.unknown(name, configuration, context)
      }
      servers = [server]
    }
    for server in servers {
      let before = ToolCacheFile.read(server.name, paths: context.paths)
      let cache = try await ServersCommand.refresh(server, context)
      let changed = before.map { $0.hash != cache.hash } ?? true
      context.print(
        "\(server.name): \(cache.serverName) \(cache.serverVersion), \(Count.of(cache.tools.count, "tool"))"
          + (changed ? "" : ", unchanged"))
    }
  }
}
