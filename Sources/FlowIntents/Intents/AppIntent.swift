import FlowDiagnostics
import FoundationEssentials

/// An action a workflow can run, declared the way App Intents declares one.
///
/// ```swift
/// /// Saves a web page to a Raindrop.io collection.
/// struct SaveBookmarkIntent: AppIntent {
///   static let title: LocalizedStringResource = "Save Bookmark"
///   static let description = IntentDescription("Save a URL to Raindrop.io.")
///   static let sideEffect = SideEffect.changes
///
///   @Parameter(title: "URL", primary: true) var url: URL
///   @Parameter(title: "Title") var title: String?
///   @Dependency var backend: any BookmarkBackend
///
///   static var parameterSummary: some ParameterSummary {
///     Summary("Save \(\.$url) to Raindrop.io") { \.$title }
///   }
///
///   func perform() async throws -> some ReturnsValue<BookmarkEntity> { … }
/// }
/// ```
///
/// The id is the kebab-case of the type name without `Intent` (`save-bookmark`), prefixed by the
/// catalogue's namespace (`raindrop.save-bookmark`). The runtime makes a fresh value with `init()`,
/// sets its parameters, and calls `perform()`.
public protocol AppIntent: Sendable {
  associatedtype PerformResult: IntentResult
  associatedtype SummaryContent: ParameterSummary = IntentParameterSummary<Self>

  /// Title Case: "Save Bookmark".
  static var title: LocalizedStringResource { get }
  /// One sentence with a period.
  static var description: IntentDescription { get }
  /// A readable sentence with the parameters in it; see ``IntentParameterSummary``.
  static var parameterSummary: SummaryContent { get }
  /// ``parameterSummary``'s layout, its key paths made keys by `keys`: what generic code reads
  /// (`IntentReflection`). Not to be implemented: the default, inlined into each conformance, reaches
  /// the summary with its type known, where generic code would ask the runtime for ``SummaryContent``
  /// by name and the runtime would check `Self: AppIntent` by scanning every conformance in the binary
  /// (0.35 M instructions of the first run of an action).
  static func _summaryLayout(keys: (AnyKeyPath) -> String?) -> SummaryLayout
  /// The type of the value `perform()` returns, nil for none: what the catalogue reads. Not to be
  /// implemented: the defaults read it from ``PerformResult`` where the conformance knows its value type
  /// (`some ReturnsValue<String>`), where ``IntentResult/outputType`` would cast to find it and the
  /// runtime would scan every conformance in the program for the first cast of each type.
  static var _outputValueType: ValueType? { get }
  /// The most running it may change, whatever its values: what `flow actions` states, and what a step is
  /// taken to do when a value that decides its effect is only known at run time. `--dry-run` skips
  /// everything but `.readOnly`, and the import card lists it.
  static var sideEffect: SideEffect { get }
  /// The parameters whose values ``sideEffect(for:)`` reads (`get-url`'s `method`, `update-bookmarks`'
  /// `move-to`). A step that computes one of them, asks for it or leaves it to be asked is taken to have
  /// the strongest effect, ``sideEffect``, until the run knows the value (issue 16); a step that writes
  /// them all has exactly the effect its values give. Empty for an intent whose effect never changes.
  static var sideEffectParameters: Set<String> { get }
  /// The network hosts it may contact, for the import card.
  static var networkAccess: NetworkAccess { get }
  /// The parameters whose values it hands to another program as command-line arguments (`open-url`'s
  /// `url`, to `xdg-open`), which every user of the machine can read in `/proc/PID/cmdline` while that
  /// program runs: the card says so, in red, when a step computes one of them.
  static var processArgumentParameters: Set<String> { get }
  /// The parameters whose value names an environment variable (`get-env`'s `name`): the checker
  /// refuses a literal name the workflow's `env:` does not list, and the run hands the intent the
  /// listed variables (``WorkflowEnvironment``), so that it reads no more than `${env.NAME}` could.
  static var environmentNameParameters: Set<String> { get }
  /// The text parameters where a whole list is expected to arrive one item per line (`append-to-file`'s
  /// `text`): the checker says nothing there, and warns where a list meets any other text parameter.
  static var linesParameters: Set<String> { get }
  /// What it does to the machine it runs on (files, commands, the desktop), for the card: the most any
  /// of its steps may do. Values decide it when ``machineAccess(for:)`` says so, through the parameters in
  /// ``sideEffectParameters``.
  static var machineAccess: [MachineAccess] { get }
  /// Whether the person must confirm every run (delete-bookmark). A step whose values make it
  /// destructive asks too, whatever this says (``IntentDescriptor/asksConfirmation(for:unknown:)``).
  static var requiresConfirmation: Bool { get }
  /// What `perform()` asks the person through its `Prompter` (`ask`, `choose-from-list`, `confirm`),
  /// so that a run nobody attends can refuse before its first step rather than fail halfway.
  static var prompts: IntentPrompts { get }
  /// Kept for porting; a command line has no app to open.
  static var openAppWhenRun: Bool { get }
  /// Overrides the id derived from the type name; rarely needed.
  static var identifier: String { get }

  /// The side effect of one step with these values; `get-url` is read-only for GET and deletes with
  /// DELETE. A value may come as it is written (text, a number) or resolved (an entity): both must be
  /// read. A parameter missing from `values` is left out of the step (its default applies); the caller
  /// handles values not known yet (``sideEffectParameters``). Never stronger than ``sideEffect``.
  /// Defaults to ``sideEffect``.
  static func sideEffect(for values: [String: FlowValue]) -> SideEffect

  /// What a step with these values does to the machine (`delete-files` with `permanently: true` deletes
  /// rather than moving to the Trash), as ``sideEffect(for:)`` is for its effect. Never more than
  /// ``machineAccess``; defaults to it.
  static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess]

  /// The question a step with these (resolved) values asks before it acts, when the words
  /// ``ConfirmationWords`` would build from the summary and the effects do not say it
  /// (`Move 3 bookmarks to the Trash?`); nil, the default, lets them build it.
  static func confirmationQuestion(for values: [String: FlowValue]) -> String?

  /// The output type for parameters of these static types, where it depends on them (`list: [a, b]`
  /// outputs a list of text); nil keeps the declared type. The checker passes the types it knows.
  static func outputType(given parameters: [String: ValueType]) -> ValueType?
  /// The same, also given the values written as literals in the step (`output: lines`), for outputs
  /// that a value decides. Defaults to ``outputType(given:)``.
  static func outputType(given parameters: [String: ValueType], literals: [String: FlowValue]) -> ValueType?

  /// What `flow validate` refuses in the values written out in a step, beyond their types: a regular
  /// expression that does not compile, an `open-url` link to a program. Keyed by parameter; given every
  /// literal of the step, since one may decide what another is (`regular-expression: true`).
  static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError]

  init()
  func perform() async throws -> PerformResult
}

extension AppIntent where PerformResult: ReturnsValue, PerformResult.Value: IntentValueConvertible {
  @inlinable public static var _outputValueType: ValueType? { PerformResult.Value.valueType }
}

extension AppIntent {
  @inlinable public static func _summaryLayout(keys: (AnyKeyPath) -> String?) -> SummaryLayout {
    parameterSummary.layout(keys: keys)
  }

  @inlinable public static var _outputValueType: ValueType? { PerformResult.outputType }

  public static var sideEffect: SideEffect { .readOnly }
  public static var networkAccess: NetworkAccess { .none }
  public static var sideEffectParameters: Set<String> { [] }
  public static var processArgumentParameters: Set<String> { [] }
  public static var environmentNameParameters: Set<String> { [] }
  public static var linesParameters: Set<String> { [] }
  public static var machineAccess: [MachineAccess] { [] }
  public static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess] { machineAccess }
  public static func confirmationQuestion(for values: [String: FlowValue]) -> String? { nil }
  public static var requiresConfirmation: Bool { false }
  public static var prompts: IntentPrompts { [] }
  public static func outputType(given parameters: [String: ValueType]) -> ValueType? { nil }
  public static func outputType(given parameters: [String: ValueType], literals: [String: FlowValue]) -> ValueType? {
    outputType(given: parameters)
  }
  public static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError] { [:] }
  public static var openAppWhenRun: Bool { false }
  // `_typeName` rather than `String(describing:)`, which searches every protocol conformance in the
  // binary for the first few types it meets: a measurable part of start-up.
  public static var identifier: String { Naming.intentID(forTypeName: _typeName(Self.self, qualified: false)) }
  public static func sideEffect(for values: [String: FlowValue]) -> SideEffect { sideEffect }

  /// Inside the struct, `Summary("…") { … }` builds this intent's summary.
  public typealias Summary = IntentParameterSummary<Self>

  /// Asks the person to confirm before going on; declining cancels the run.
  public func requestConfirmation(_ dialog: IntentDialog? = nil) async throws {
    let context = try IntentContext.requireCurrent()
    let text = dialog?.text ?? "\(Self.title.key)?"
    var request = ConfirmationRequest(
      kind: .intent, origin: PromptOrigin(intentID: Self.identifier), dialog: text,
      isDestructive: Self.sideEffect == .destructive)
    request.access = Self.machineAccess.map(\.kind)
    let confirmed = try await context.prompter.requestConfirmation(request)
    if !confirmed { throw AppIntentError.userCancelled }
  }

  /// Asks the person to confirm, showing the dialog of the result about to be returned.
  public func requestConfirmation(result: some IntentResult) async throws {
    try await requestConfirmation(result.outputDialog)
  }
}

extension AppIntent where SummaryContent == IntentParameterSummary<Self> {
  /// No summary declared: the title stands alone.
  public static var parameterSummary: IntentParameterSummary<Self> {
    IntentParameterSummary(undeclared: title.key)
  }
}

/// What an intent may ask the person while it performs, besides values its parameters lack.
public struct IntentPrompts: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A value typed in (`ask`).
  public static let value = IntentPrompts(rawValue: 1)
  /// A choice from a list (`choose-from-list`).
  public static let choice = IntentPrompts(rawValue: 2)
  /// A yes or no that `--yes` answers (`confirm`).
  public static let confirmation = IntentPrompts(rawValue: 4)
}

/// How much running an intent may change, from nothing to something that cannot be undone.
public enum SideEffect: String, Sendable, Hashable, Comparable, CaseIterable {
  /// Only reads (get-bookmarks, show).
  case readOnly = "read-only"
  /// Creates or changes something (save-bookmark, open-url).
  case changes
  /// Deletes or overwrites something (delete-bookmark, update-bookmarks moving to Trash, a DELETE
  /// request). A step that is destructive for its values asks for confirmation before it runs.
  case destructive

  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
  }
}

/// Which hosts an intent may contact.
public enum NetworkAccess: Sendable, Hashable {
  case none
  /// Fixed hosts (`api.raindrop.io`).
  case hosts([String])
  /// The host of the URL in this parameter (`get-url`'s `url`).
  case hostOfParameter(String)
  /// Hosts it does not name, besides those it does: an MCP tool whose server says it may reach beyond
  /// itself (`openWorldHint`, true when absent), and the host of a Streamable HTTP server, which every
  /// call contacts. Only the server knows which others, so the card says so in its words.
  case undeclaredHosts(besides: [String])

  /// Whether the step contacts a host the workflow names (`get-url`'s URL) or one only its server knows
  /// (an MCP tool), rather than a service's own API (`api.raindrop.io`): what a dry run leaves alone
  /// unless `--dry-run=reads` asks, since even a GET to such a host may act (a webhook).
  public var reachesNamedHosts: Bool {
    switch self {
    case .none, .hosts: false
    case .hostOfParameter, .undeclaredHosts: true
    }
  }

  /// The hosts a step with these values contacts.
  public func hosts(for values: [String: FlowValue]) -> [String] {
    switch self {
    case .none: []
    case .hosts(let hosts), .undeclaredHosts(let hosts): hosts
    case .hostOfParameter(let key):
      values[key].flatMap { try? URL(flowValue: $0) }.flatMap(Self.destination).map { [$0] } ?? []
    }
  }

  /// Where a URL goes, as the card names it: its host, or for `mailto:` (which names no host) the
  /// recipients, `mailto:ada@example.com` — a message to them leaves the machine as a request does.
  public static func destination(of url: URL) -> String? {
    if let host = url.host, !host.isEmpty { return HostName.canonical(host) }
    guard url.scheme?.lowercased() == "mailto" else { return nil }
    let text = url.absoluteString.dropFirst("mailto:".count)
    let (path, query) = text.firstIndex(of: "?").map { (text[..<$0], text[text.index(after: $0)...]) } ?? (text, "")
    var recipients = path.split(separator: ",").map { String($0).removingPercentEscapes ?? String($0) }
    for field in query.split(separator: "&") {
      let parts = field.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, ["to", "cc", "bcc"].contains(parts[0].lowercased()) else { continue }
      recipients += parts[1].split(separator: ",").map { String($0).removingPercentEscapes ?? String($0) }
    }
    return "mailto:" + recipients.map { $0.trimmingWhitespace().lowercased() }.joined(separator: ",")
  }
}
