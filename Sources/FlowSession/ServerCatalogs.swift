import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import FoundationEssentials
import Synchronization

/// The MCP servers configured in config.yml, as catalogues of actions read from their tool caches: what
/// the registry asks for an id that is not built in (`time.get_current_time`). Nothing here starts a
/// server; reading config.yml and the caches waits until an id needs them.
public final class ServerCatalogs: ExternalCatalogSource {
  public let paths: FlowPaths
  /// config.yml's servers, read once.
  private let configured = Mutex<[ServerConfiguration]?>(nil)
  /// Each server's tool cache, read the first time an id of that server is looked up (nil: no cache): a
  /// workflow that calls one server's tools reads that server's cache, not every server's.
  private let caches = Mutex<[String: ToolCache?]>([:])
  /// Each tool's action, by id, described the first time it is looked up: a workflow that calls two of
  /// a server's forty tools describes two.
  private let described = Mutex<[String: IntentDescriptor]>([:])

  public init(paths: FlowPaths) { self.paths = paths }

  /// The servers configured here, in config.yml's order.
  public var servers: [ServerConfiguration] {
    configured.withLock { configured in
      if let configured { return configured }
      let servers = (try? Configuration.load(paths.configFile).servers) ?? []
      configured = servers
      return servers
    }
  }

  /// The server's tool cache, read once.
  public func cache(of server: ServerConfiguration) -> ToolCache? {
    if let known = caches.withLock({ $0[server.name] }) { return known }
    let cache = ToolCacheFile.read(server.name, paths: paths)
    caches.withLock { $0[server.name] = cache }
    return cache
  }

  /// A tool as an action, described once.
  private func descriptor(of tool: MCPTool, server: ServerConfiguration) -> IntentDescriptor {
    let id = "\(server.name).\(tool.name)"
    if let known = described.withLock({ $0[id] }) { return known }
    let descriptor = Self.descriptor(of: tool, server: server)
    described.withLock { $0[id] = descriptor }
    return descriptor
  }

  public func catalogs() -> [ExternalCatalog] {
    servers.compactMap { server in
      cache(of: server).map { cache in
        ExternalCatalog(
          title: Self.title(of: server), namespace: server.name,
          descriptors: cache.tools.map { descriptor(of: $0, server: server) })
      }
    }
  }

  public func command(ofServer namespace: String) -> String? {
    servers.first { $0.name == namespace }?.commandLine
  }

  public func descriptor(namespace: String, name: String, id: String) throws(IntentLookupError) -> IntentDescriptor {
    let servers = servers
    guard let server = servers.first(where: { $0.name == namespace }) else {
      throw IntentLookupError(
        kind: .unknownServer, id: id,
        message: "unknown action '\(id)': no server named '\(namespace)' is configured here",
        help: "add it with 'flow servers add \(namespace) -- COMMAND [ARGS...]'"
          + (servers.isEmpty ? "" : "; configured: \(servers.map(\.name).joined(separator: ", "))"),
        candidates: servers.map(\.name))
    }
    guard let cache = cache(of: server) else {
      throw IntentLookupError(
        kind: .uncachedServer, id: id, message: "the tools of server '\(namespace)' are not known yet",
        help: "run 'flow servers refresh \(namespace)'", candidates: [])
    }
    if let tool = cache.tool(named: name) { return descriptor(of: tool, server: server) }
    let names = cache.tools.map(\.name)
    throw IntentLookupError(
      kind: .unknown, id: id, message: "server '\(namespace)' has no tool '\(name)'",
      help: Suggestion.closest(to: name, among: names).map { "did you mean '\(namespace).\($0)'?" }
        ?? (names.isEmpty
          ? "it lists no tools; 'flow servers refresh \(namespace)' asks it again"
          : "its tools: \(names.joined(separator: ", "))"),
      candidates: names.map { "\(namespace).\($0)" })
  }

  /// The catalogue's title. What the name starts here is said once, on the card's and `flow show`'s line
  /// for the server (``IntentRegistry/server(of:)``), and by `flow servers list`.
  public static func title(of server: ServerConfiguration) -> String { "MCP server '\(server.name)'" }

  /// A server's tool as an action: the same descriptor a Swift intent makes.
  public static func descriptor(of tool: MCPTool, server: ServerConfiguration) -> IntentDescriptor {
    let actionTitle = tool.displayTitle
    let action = ExternalAction(
      namespace: server.name, shortID: tool.name, catalogTitle: title(of: server), title: actionTitle,
      description: tool.description, parameters: SchemaTypes.parameters(of: tool),
      outputType: SchemaTypes.outputType(of: tool, actionTitle: actionTitle), sideEffect: tool.sideEffect,
      // The host of a Streamable HTTP server, which every call contacts, and with `openWorldHint` (true
      // when absent, as the specification says) hosts only the server knows.
      networkAccess: tool.isOpenWorld
        ? .undeclaredHosts(besides: server.contactedHosts)
        : server.contactedHosts.isEmpty ? .none : .hosts(server.contactedHosts),
      effectClaimedBy: "the server '\(server.name)'")
    return IntentDescriptor(action) { values, context in
      try await ToolCall.perform(tool, server: server.name, values: values, context: context)
    }
  }
}

/// Where a server's tool cache lives, and reading and writing it.
public enum ToolCacheFile {
  public static func url(_ name: String, paths: FlowPaths) -> URL {
    paths.state.appending(path: "servers", directoryHint: .isDirectory).appending(path: "\(name).json")
  }

  public static func read(_ name: String, paths: FlowPaths) -> ToolCache? {
    guard case .success(let bytes) = RegularFile.read(url(name, paths: paths).path, limit: 64 << 20) else { return nil }
    return ToolCache.decode(String(decoding: bytes, as: UTF8.self))
  }

  public static func write(_ cache: ToolCache, name: String, paths: FlowPaths) throws {
    let file = url(name, paths: paths)
    try PrivateFiles.ensureDirectory(file.deletingLastPathComponent())
    try PrivateFiles.write(Data(cache.encoded().utf8), to: file)
  }

  public static func remove(_ name: String, paths: FlowPaths) {
    try? FileManager.default.removeItem(at: url(name, paths: paths))
  }
}
