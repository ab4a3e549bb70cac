import FlowBasics
import FlowIntents
import FlowLibrary
import RaindropIntents
import Synchronization

/// The action catalogues this build of flow ships, in the order `flow actions` lists them. Public for the
/// tests that must cover every shipped action (the effect of each, issue 16), and for the fuzzing harness
/// (`FlowFuzzing`), which checks files against exactly these.
public enum Catalogs {
  public static var all: [any IntentCatalog.Type] { [BasicsCatalog.self, RaindropCatalog.self] }

  /// The compiled-in catalogues.
  public static let builtIn = IntentRegistry(catalogs: all)

  /// The compiled-in catalogues and the MCP servers configured for this context (config.yml and their tool
  /// caches, read only when an id is not built in or every action is listed: ServerCatalogs).
  public static var registry: IntentRegistry {
    let paths = SessionContext.current.paths
    let source = sources.withLock { sources in
      if let known = sources.first(where: { $0.paths == paths }) { return known }
      let made = ServerCatalogs(paths: paths)
      sources.append(made)
      return made
    }
    return builtIn.adding(source)
  }

  /// One source per set of paths (tests run commands in-process with paths of their own); forgotten when
  /// `flow servers` changes the configuration or a cache. A list, not a dictionary keyed by the paths:
  /// a process's first dictionary of a key type makes the runtime scan every protocol conformance for
  /// the key's `Hashable` (0.4 M instructions of every run), and a process holds one set of paths.
  private static let sources = Mutex<[ServerCatalogs]>([])

  public static func forgetServers(_ paths: FlowPaths) { sources.withLock { $0.removeAll { $0.paths == paths } } }

  /// Every app shortcut phrase, lower-cased, with its short title and the full id of its intent: what
  /// `flow do` matches.
  public static var phrases: [(phrase: String, shortTitle: String, intentID: String)] {
    all.flatMap { catalog in
      (catalog.shortcuts?.phrases ?? []).map { entry in
        let shortID = entry.shortcut.intentType.identifier
        return (entry.phrase, entry.shortcut.shortTitle, catalog.namespace.map { "\($0).\(shortID)" } ?? shortID)
      }
    }
  }
}
