import ArgumentParser
import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowSession
import FoundationEssentials

/// `flow servers import FILE`: the servers of a Claude Desktop, Cursor or VS Code configuration.
struct ServersImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Add the servers of an mcpServers JSON file (Claude Desktop, Cursor, VS Code).",
    discussion: """
      Reads {"mcpServers": {NAME: {"command", "args", "env"} or {"url", "headers"}}} (VS Code's mcp.json \
      says "servers"). Names become lower-case with '-' for anything else. Header values are not copied \
      into config.yml: each header is read from an environment variable named after it at run time. \
      Servers already configured are kept unless --replace.
      """)

  @Argument(help: ArgumentHelp("The JSON file.", valueName: "FILE"))
  var file: String

  @Flag(help: "Replace servers of the same name.")
  var replace = false

  func run() async throws {
    let context = SessionContext.current
    let path = context.url(for: file).path
    let text: String
    switch RegularFile.read(path, limit: 8 << 20) {
    case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
    case .failure(let problem): throw Library.fail(problem.diagnostic(path: path), context)
    }
    let entries: FlowDictionary
    do {
      let root = try JSON.parse(text)
      guard case .dictionary(let fields) = root,
        case .dictionary(let servers)? = fields["mcpServers"] ?? fields["servers"]
      else {
        throw Library.fail(
          Diagnostic(.error, "invalid-server-file", "no 'mcpServers' object in the file", file: path)
            .help(
              "the file should look like {\"mcpServers\": {\"time\": {\"command\": \"uvx\", \"args\": [\"mcp-server-time\"]}}}"
            ),
          context)
      }
      entries = servers
    } catch let error as JSON.ParseError {
      throw Library.fail(Diagnostic(.error, "invalid-server-file", "not JSON: \(error.message)", file: path), context)
    }
    var configuration = try ServersCommand.configuration(context)
    var added: [ServerConfiguration] = []
    for (rawName, value) in entries {
      let name = Self.name(rawName)
      guard case .dictionary(let fields) = value else { continue }
      if configuration.server(named: name) != nil, !replace {
        context.console.write("kept '\(name)': already configured (--replace replaces it)\n", to: .error)
        continue
      }
      let server: ServerConfiguration
      if case .text(let command)? = fields["command"] {
        var arguments: [String] = []
        if case .list(let items)? = fields["args"] { arguments = items.map(\.text) }
        var environment: [String: String] = [:]
        if case .dictionary(let variables)? = fields["env"] {
          for (key, value) in variables { environment[key] = value.text }
        }
        server = ServerConfiguration(
          name: name, transport: .stdio(command: command, arguments: arguments, environment: environment))
      } else if case .text(let url)? = fields["url"] {
        var headers: [String: String] = [:]
        if case .dictionary(let given)? = fields["headers"] {
          for (header, _) in given { headers[header] = Self.variable(forHeader: header) }
        }
        server = ServerConfiguration(name: name, transport: .http(url: url, headerEnvironment: headers))
      } else {
        context.console.write("skipped '\(rawName)': neither a command nor a url\n", to: .error)
        continue
      }
      configuration.servers.removeAll { $0.name == name }
      configuration.servers.append(server)
      added.append(server)
    }
    try ServersCommand.save(configuration.servers, context)
    for server in added {
      context.printShown("added '\(server.name)': \(server.commandLine)")
      do {
        let cache = try await ServersCommand.refresh(server, context)
        context.print("  \(Count.of(cache.tools.count, "tool")) cached")
      } catch {
        // Added all the same: the file is what the person asked for; `refresh` tries again.
        context.console.write("  tools not cached; 'flow servers refresh \(server.name)' tries again\n", to: .error)
      }
    }
  }

  /// A server name from a JSON key: lower case, anything else '-', starting with a letter.
  static func name(_ raw: String) -> String {
    var name = String(raw.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    while name.hasPrefix("-") { name.removeFirst() }
    if let first = name.first, !first.isLetter { name = "s-" + name }
    return name.isEmpty ? "server" : String(name.prefix(64))
  }

  /// `Authorization` → `AUTHORIZATION`: tokens stay in the environment, not in config.yml.
  static func variable(forHeader header: String) -> String {
    String(header.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}
