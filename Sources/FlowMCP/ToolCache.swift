import FlowIntents
import FoundationEssentials

/// What flow knows of a server's tools between runs: `$XDG_STATE_HOME/flow/servers/NAME.json`, written by
/// `flow servers add` and `refresh`, read by everything that checks or lists actions, so that `validate`,
/// `show`, `actions`, `schema` and completions never start a server.
///
/// The hash covers the tools as the server listed them (names, schemas, annotations, in order); a run
/// compares it with the server's answer on first connect, before step 1 (see ``staleness(against:)``).
public struct ToolCache: Sendable, Hashable {
  public var serverName: String
  public var serverVersion: String
  public var protocolVersion: String
  /// The command line (or URL) the tools were listed from: a changed configuration invalidates the cache.
  public var source: String
  public var tools: [MCPTool]

  public init(serverName: String, serverVersion: String, protocolVersion: String, source: String, tools: [MCPTool]) {
    self.serverName = serverName
    self.serverVersion = serverVersion
    self.protocolVersion = protocolVersion
    self.source = source
    self.tools = tools
  }

  /// SHA-256 of the tools' JSON.
  public var hash: String { Self.hash(tools) }

  static func hash(_ tools: [MCPTool]) -> String {
    Digest.sha256Hex(Array(JSON.encode(.list(tools.map(\.raw))).utf8))
  }

  public func tool(named name: String) -> MCPTool? { tools.first { $0.name == name } }

  public func encoded() -> String {
    JSON.encode(
      [
        "format": 1, "server": ["name": .text(serverName), "version": .text(serverVersion)],
        "protocolVersion": .text(protocolVersion), "source": .text(source), "hash": .text(hash),
        "tools": .list(tools.map(\.raw)),
      ], pretty: true) + "\n"
  }

  public static func decode(_ text: String) -> ToolCache? {
    guard case .dictionary(let fields)? = try? JSON.parse(text), fields["format"] == 1,
      case .list(let tools)? = fields["tools"]
    else { return nil }
    let server = fields["server"]?.dictionaryFields ?? FlowDictionary()
    return ToolCache(
      serverName: server["name"]?.text ?? "", serverVersion: server["version"]?.text ?? "",
      protocolVersion: fields["protocolVersion"]?.text ?? "", source: fields["source"]?.text ?? "",
      tools: tools.compactMap(MCPTool.init))
  }

  /// How the tools a server lists now differ from the cache, for the tools a run uses: nil when every one
  /// of them is as cached. Tools the run does not use may change freely.
  public func staleness(against current: [MCPTool], using names: Set<String>) -> String? {
    var problems: [String] = []
    for name in names.sorted() {
      guard let cached = tool(named: name) else { continue }
      guard let now = current.first(where: { $0.name == name }) else {
        problems.append("the server no longer has the tool '\(name)'")
        continue
      }
      if now.inputSchema != cached.inputSchema || now.outputSchema != cached.outputSchema {
        problems.append("the tool '\(name)' changed its parameters or output since it was cached")
      } else if now.sideEffect != cached.sideEffect {
        problems.append("the tool '\(name)' changed its annotations since it was cached")
      }
    }
    return problems.isEmpty ? nil : problems.joined(separator: "; ")
  }
}
