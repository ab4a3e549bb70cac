import FlowDiagnostics
import Synchronization

/// A named set of intents: the basics, Raindrop.io. Each keeps an explicit list, sorted by id, so that
/// adding an intent is one file and one line (CatalogValidator checks the order).
public protocol IntentCatalog: Sendable {
  /// The prefix of its ids (`raindrop`), or nil for the basics, whose ids stand alone.
  static var namespace: String? { get }
  /// The heading in `flow actions`: "Basics", "Raindrop.io".
  static var title: String { get }
  static var intents: [any AppIntent.Type] { get }
  /// Its app shortcuts, for `flow do`.
  static var shortcuts: (any AppShortcutsProvider.Type)? { get }
  /// The entity types the workflow format names without an intent at hand (`${trigger.file}` is a
  /// File): found by name without describing every intent.
  static var entities: [any AppEntity.Type] { get }
}

extension IntentCatalog {
  public static var shortcuts: (any AppShortcutsProvider.Type)? { nil }
  public static var entities: [any AppEntity.Type] { [] }

  /// Descriptors of every intent, in the list's order.
  public static var descriptors: [IntentDescriptor] {
    intents.map { IntentDescriptor($0, namespace: namespace, catalogTitle: title) }
  }
}

/// All catalogues of a run, with lookup by id.
///
/// Descriptors are built on first lookup and kept: building one reflects over the intent, and at
/// start-up that cost a third of `flow run`'s time when every intent was described, though a workflow
/// uses a few.
public struct IntentRegistry: Sendable {
  /// One catalogue's title and intents.
  public struct Group: Sendable {
    public let title: String
    public let namespace: String?
    public let descriptors: [IntentDescriptor]
  }

  /// An intent's ids, known without describing it.
  private struct Entry: Sendable {
    let id: String
    let shortID: String
    let namespace: String?
    let catalogTitle: String
    let type: any AppIntent.Type
  }

  private let catalogs: [(title: String, namespace: String?)]
  private let entries: [Entry]
  /// The catalogues, asked for their entities only when a name is looked up: listing them makes their
  /// metadata, which a run that names none should not pay for.
  private let catalogTypes: [any IntentCatalog.Type]
  private let cache = DescriptorCache()
  /// Catalogues described by data (MCP servers' cached tools), asked only when an id is not built in or
  /// every action is listed: a run that uses no server never reads them.
  private var external: (any ExternalCatalogSource)?

  /// This registry with `source`'s catalogues after the built-in ones.
  public func adding(_ source: any ExternalCatalogSource) -> IntentRegistry {
    var copy = self
    copy.external = source
    return copy
  }

  public init(catalogs: [any IntentCatalog.Type]) {
    self.catalogs = catalogs.map { ($0.title, $0.namespace) }
    catalogTypes = catalogs
    entries = catalogs.flatMap { catalog in
      catalog.intents.map { type in
        let shortID = type.identifier
        return Entry(
          id: catalog.namespace.map { "\($0).\(shortID)" } ?? shortID, shortID: shortID, namespace: catalog.namespace,
          catalogTitle: catalog.title, type: type)
      }
    }
  }

  /// The type of a declared entity by its name or spelling (`File`, `file`), without describing any
  /// intent; nil for one no catalogue declares.
  public func entityType(named name: String) -> ValueType? {
    let lowered = name.lowercased()
    for entity in catalogTypes.flatMap({ $0.entities }) {
      let type = entity.valueType
      if type.name.lowercased() == lowered || type.spelling == lowered { return type }
    }
    return nil
  }

  /// Every catalogue with its intents described, in order.
  public var groups: [Group] {
    catalogs.map { catalog in
      Group(
        title: catalog.title, namespace: catalog.namespace,
        descriptors: entries.filter { $0.catalogTitle == catalog.title }.map(describe))
    } + externalCatalogs.map { Group(title: $0.title, namespace: $0.namespace, descriptors: $0.descriptors) }
  }

  /// Every intent, catalogue by catalogue.
  public var descriptors: [IntentDescriptor] {
    entries.map(describe) + externalCatalogs.flatMap(\.descriptors)
  }

  /// Every full id.
  public var ids: [String] { entries.map(\.id) + externalCatalogs.flatMap { $0.descriptors.map(\.id) } }

  private var externalCatalogs: [ExternalCatalog] { external?.catalogs() ?? [] }

  /// The server an action id names (`notes` for `notes.add`), when its namespace is no built-in
  /// catalogue's: what this machine configured for it (its command), or nil for the command when it has
  /// no such server. Nil for built-in ids and ids without a dot. What the card lists as the servers a
  /// workflow uses.
  public func server(of id: String) -> (name: String, command: String?)? {
    guard let external, let dot = id.firstIndex(of: ".") else { return nil }
    let namespace = String(id[..<dot])
    guard !catalogs.contains(where: { $0.namespace == namespace }), !entries.contains(where: { $0.id == id }) else {
      return nil
    }
    return (namespace, external.command(ofServer: namespace))
  }

  private func describe(_ entry: Entry) -> IntentDescriptor {
    cache.descriptor(for: entry.id) {
      IntentDescriptor(entry.type, namespace: entry.namespace, catalogTitle: entry.catalogTitle)
    }
  }

  /// What a step naming `tool` of a misspelt server meant, `server` being the configured one it is
  /// closest to: that server's tool of that name, or its closest tool, or the server itself.
  private static func meant(_ tool: String, of server: String, in external: any ExternalCatalogSource) -> String {
    do throws(IntentLookupError) {
      let found = try external.descriptor(namespace: server, name: tool, id: "\(server).\(tool)")
      return "'\(found.id)'"
    } catch {
      return Suggestion.closest(to: "\(server).\(tool)", among: error.candidates).map { "'\($0)'" }
        ?? "the server '\(server)'"
    }
  }

  /// The intent with this id: the full id (`raindrop.save-bookmark`), or the short one
  /// (`save-bookmark`) when only one catalogue has it.
  public func descriptor(for id: String) throws(IntentLookupError) -> IntentDescriptor {
    // A workflow names the same few actions over and over: each built-in id, as written, is looked up once.
    if let known = cache.written(id) { return known }
    // A dotted id outside the built-in namespaces is a server's tool (`time.get_current_time`): built-in
    // short ids are kebab-case, never dotted (CatalogValidator), so it goes straight to the servers.
    // Scanning the built-in ids and short ids for it first was a third of what `flow validate` spent
    // on a workflow of tools (Scripts/bench-mcp.sh).
    if let dot = id.firstIndex(of: "."), let external {
      let namespace = String(id[..<dot]), toolName = String(id[id.index(after: dot)...])
      if !catalogs.contains(where: { $0.namespace == namespace }) {
        do {
          return try external.descriptor(namespace: namespace, name: toolName, id: id)
        } catch  where error.kind == .unknownServer {
          // `raindorp.save-bookmark` is a typo of a built-in action before it is a server nobody added.
          let names = entries.map(\.id)
          if let close = Suggestion.closest(to: id, among: names) {
            throw IntentLookupError(
              kind: .unknown, id: id, message: "unknown action '\(id)'", help: "did you mean '\(close)'?",
              candidates: names)
          }
          // `tset.echo` is a typo of a server configured here before it is one nobody added: an error,
          // as a tool's typo is, rather than the warning a server meant for another machine gets.
          guard let server = Suggestion.closest(to: namespace, among: error.candidates) else { throw error }
          throw IntentLookupError(
            kind: .unknown, id: id, message: "no server named '\(namespace)' is configured here",
            help: "did you mean \(Self.meant(toolName, of: server, in: external))?", candidates: error.candidates)
        }
      }
    }
    if let exact = entries.first(where: { $0.id == id }) { return cache.remember(id, describe(exact)) }
    let short = entries.filter { $0.shortID == id }
    if short.count == 1 { return cache.remember(id, describe(short[0])) }
    if short.count > 1 {
      throw IntentLookupError(
        kind: .ambiguous, id: id, message: "action '\(id)' is ambiguous",
        help: "write it with its catalogue: \(List.or(short.map { "'\($0.id)'" }))", candidates: short.map(\.id))
    }
    let names = ids + entries.filter { $0.namespace != nil }.map(\.shortID)
    throw IntentLookupError(
      kind: .unknown, id: id, message: "unknown action '\(id)'",
      help: Suggestion.closest(to: id, among: names).map { "did you mean '\($0)'?" }
        ?? "run 'flow actions' to list them",
      candidates: names)
  }
}

/// A catalogue described by data: one MCP server's tools, from its cache.
public struct ExternalCatalog: Sendable {
  public let title: String
  public let namespace: String
  public let descriptors: [IntentDescriptor]

  public init(title: String, namespace: String, descriptors: [IntentDescriptor]) {
    self.title = title
    self.namespace = namespace
    self.descriptors = descriptors
  }
}

/// Where a registry finds catalogues that are not compiled in (FlowCLI's MCP servers).
public protocol ExternalCatalogSource: Sendable {
  /// Every such catalogue, for `flow actions`, the schema and completions.
  func catalogs() -> [ExternalCatalog]
  /// The action `namespace.name`, or the lookup error that explains why there is none: an unknown server,
  /// a server whose tools are not cached yet, a tool the server does not have (with did-you-mean among its
  /// tools).
  func descriptor(namespace: String, name: String, id: String) throws(IntentLookupError) -> IntentDescriptor
  /// What the server `namespace` starts on this machine (its command line, or its URL); nil when no such
  /// server is configured here.
  func command(ofServer namespace: String) -> String?
}

/// Descriptors built so far, by id; shared by copies of a registry.
private final class DescriptorCache: Sendable {
  private let built = Mutex<[String: IntentDescriptor]>([:])
  /// Built-in descriptors by the id a workflow wrote, full or short.
  private let byWrittenID = Mutex<[String: IntentDescriptor]>([:])

  func written(_ id: String) -> IntentDescriptor? { byWrittenID.withLock { $0[id] } }

  func remember(_ id: String, _ descriptor: IntentDescriptor) -> IntentDescriptor {
    byWrittenID.withLock { $0[id] = descriptor }
    return descriptor
  }

  func descriptor(for id: String, _ make: () -> IntentDescriptor) -> IntentDescriptor {
    if let known = built.withLock({ $0[id] }) { return known }
    let descriptor = make()
    built.withLock { $0[id] = descriptor }
    return descriptor
  }
}

/// An action id that names no intent, or more than one.
public struct IntentLookupError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No intent has the id, or several have it as their short id.
  public enum Kind: Sendable, Hashable { case unknown, ambiguous, unknownServer, uncachedServer }

  public var kind: Kind
  public var id: String
  public var message: String
  public var help: String?
  public var candidates: [String]

  public var description: String { message }

  /// The diagnostic code: `unknown-action` or `ambiguous-action`.
  public var code: DiagnosticCode {
    switch kind {
    case .unknown: "unknown-action"
    case .ambiguous: "ambiguous-action"
    case .unknownServer: "unknown-server"
    case .uncachedServer: "uncached-server"
    }
  }

  public init(kind: Kind, id: String, message: String, help: String?, candidates: [String]) {
    self.kind = kind
    self.id = id
    self.message = message
    self.help = help
    self.candidates = candidates
  }

  /// The error as a diagnostic pointing at `span` (the action key in a workflow), or at nothing.
  public func diagnostic(at span: SourceSpan? = nil) -> Diagnostic {
    Diagnostic(.error, code, message, at: span).help(help)
  }
}
