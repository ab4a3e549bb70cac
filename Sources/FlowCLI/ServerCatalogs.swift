import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import Foundation
import Synchronization

/// The MCP servers configured in config.yml, as catalogues of actions read from their tool caches: what
/// the registry asks for an id that is not built in (`time.get_current_time`). Nothing here starts a
/// server; reading config.yml and the caches waits until an id needs them.
final class ServerCatalogs: ExternalCatalogSource {
  let paths: FlowPaths
  private let loaded = Mutex<Loaded?>(nil)

  struct Loaded: Sendable {
    var servers: [ServerConfiguration]
    var caches: [String: ToolCache]
    var catalogs: [String: ExternalCatalog]
  }

  init(paths: FlowPaths) { self.paths = paths }

  /// The configuration and caches, read once.
  var state: Loaded {
    loaded.withLock { loaded in
      if let loaded { return loaded }
      let servers = (try? Configuration.load(paths.configFile).servers) ?? []
      var caches: [String: ToolCache] = [:]
      var catalogs: [String: ExternalCatalog] = [:]
      for server in servers {
        guard let cache = ToolCacheFile.read(server.name, paths: paths) else { continue }
        caches[server.name] = cache
        catalogs[server.name] = Self.catalog(server: server, cache: cache)
      }
      let state = Loaded(servers: servers, caches: caches, catalogs: catalogs)
      loaded = state
      return state
    }
  }

  func catalogs() -> [ExternalCatalog] {
    let state = state
    return state.servers.compactMap { state.catalogs[$0.name] }
  }

  func descriptor(namespace: String, name: String, id: String) throws(IntentLookupError) -> IntentDescriptor {
    let state = state
    guard state.servers.contains(where: { $0.name == namespace }) else {
      throw IntentLookupError(
        kind: .unknownServer, id: id,
        message: "unknown action '\(id)': no server named '\(namespace)' is configured here",
        help: "add it with 'flow servers add \(namespace) -- COMMAND [ARGS...]'"
          + (state.servers.isEmpty ? "" : "; configured: \(state.servers.map(\.name).joined(separator: ", "))"),
        candidates: state.servers.map(\.name))
    }
    guard let catalog = state.catalogs[namespace] else {
      throw IntentLookupError(
        kind: .uncachedServer, id: id, message: "the tools of server '\(namespace)' are not known yet",
        help: "run 'flow servers refresh \(namespace)'", candidates: [])
    }
    if let descriptor = catalog.descriptors.first(where: { $0.shortID == name }) { return descriptor }
    let names = catalog.descriptors.map(\.shortID)
    throw IntentLookupError(
      kind: .unknown, id: id, message: "server '\(namespace)' has no tool '\(name)'",
      help: Suggestion.closest(to: name, among: names).map { "did you mean '\(namespace).\($0)'?" }
        ?? "its tools: \(names.joined(separator: ", "))",
      candidates: names.map { "\(namespace).\($0)" })
  }

  /// A server's tools as actions: the same descriptors a Swift intent makes.
  static func catalog(server: ServerConfiguration, cache: ToolCache) -> ExternalCatalog {
    // The command configured here is part of the name the card and `flow actions` show: a shared workflow
    // names a server, and the person importing it sees what that name starts on this machine.
    let title = "MCP server '\(server.name)' (\(server.commandLine))"
    let descriptors = cache.tools.map { tool in
      let actionTitle = tool.displayTitle
      let action = ExternalAction(
        namespace: server.name, shortID: tool.name, catalogTitle: title, title: actionTitle,
        description: tool.description, parameters: SchemaTypes.parameters(of: tool),
        outputType: SchemaTypes.outputType(of: tool, actionTitle: actionTitle), sideEffect: tool.sideEffect,
        networkAccess: server.contactedHosts.isEmpty ? .none : .hosts(server.contactedHosts),
        effectClaimedBy: "the server '\(server.name)'")
      return IntentDescriptor(action) { values, context in
        try await ToolCall.perform(tool, server: server.name, values: values, context: context)
      }
    }
    return ExternalCatalog(title: title, namespace: server.name, descriptors: descriptors)
  }
}

/// Where a server's tool cache lives, and reading and writing it.
enum ToolCacheFile {
  static func url(_ name: String, paths: FlowPaths) -> URL {
    paths.state.appending(path: "servers", directoryHint: .isDirectory).appending(path: "\(name).json")
  }

  static func read(_ name: String, paths: FlowPaths) -> ToolCache? {
    guard case .success(let bytes) = RegularFile.read(url(name, paths: paths).path, limit: 64 << 20) else { return nil }
    return ToolCache.decode(String(decoding: bytes, as: UTF8.self))
  }

  static func write(_ cache: ToolCache, name: String, paths: FlowPaths) throws {
    let file = url(name, paths: paths)
    try PrivateFiles.ensureDirectory(file.deletingLastPathComponent())
    try PrivateFiles.write(Data(cache.encoded().utf8), to: file)
  }

  static func remove(_ name: String, paths: FlowPaths) {
    try? FileManager.default.removeItem(at: url(name, paths: paths))
  }
}
