import FlowDiagnostics

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
}

extension IntentCatalog {
  public static var shortcuts: (any AppShortcutsProvider.Type)? { nil }

  /// Descriptors of every intent, in the list's order.
  public static var descriptors: [IntentDescriptor] {
    intents.map { IntentDescriptor($0, namespace: namespace, catalogTitle: title) }
  }
}

/// All catalogues of a run, with lookup by id.
public struct IntentRegistry: Sendable {
  /// One catalogue's title and intents.
  public struct Group: Sendable {
    public let title: String
    public let namespace: String?
    public let descriptors: [IntentDescriptor]
  }

  public let groups: [Group]

  public init(catalogs: [any IntentCatalog.Type]) {
    groups = catalogs.map { Group(title: $0.title, namespace: $0.namespace, descriptors: $0.descriptors) }
  }

  /// Every intent, catalogue by catalogue.
  public var descriptors: [IntentDescriptor] { groups.flatMap(\.descriptors) }

  /// Every full id.
  public var ids: [String] { descriptors.map(\.id) }

  /// The intent with this id: the full id (`raindrop.save-bookmark`), or the short one
  /// (`save-bookmark`) when only one catalogue has it.
  public func descriptor(for id: String) throws(IntentLookupError) -> IntentDescriptor {
    if let exact = descriptors.first(where: { $0.id == id }) { return exact }
    let short = descriptors.filter { $0.shortID == id }
    if short.count == 1 { return short[0] }
    if short.count > 1 {
      throw IntentLookupError(
        kind: .ambiguous, id: id, message: "action '\(id)' is ambiguous",
        help: "write it with its catalogue: \(List.or(short.map { "'\($0.id)'" }))", candidates: short.map(\.id))
    }
    let names = ids + descriptors.filter { $0.namespace != nil }.map(\.shortID)
    throw IntentLookupError(
      kind: .unknown, id: id, message: "unknown action '\(id)'",
      help: Suggestion.closest(to: id, among: names).map { "did you mean '\($0)'?" }
        ?? "run 'flow actions' to list them",
      candidates: names)
  }
}

/// An action id that names no intent, or more than one.
public struct IntentLookupError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No intent has the id, or several have it as their short id.
  public enum Kind: Sendable, Hashable { case unknown, ambiguous }

  public var kind: Kind
  public var id: String
  public var message: String
  public var help: String?
  public var candidates: [String]

  public var description: String { message }

  /// The diagnostic code: `unknown-action` or `ambiguous-action`.
  public var code: DiagnosticCode { kind == .unknown ? "unknown-action" : "ambiguous-action" }

  /// The error as a diagnostic pointing at `span` (the action key in a workflow), or at nothing.
  public func diagnostic(at span: SourceSpan? = nil) -> Diagnostic {
    Diagnostic(.error, code, message, at: span).help(help)
  }
}
