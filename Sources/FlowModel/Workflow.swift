import FlowDiagnostics

/// A workflow as decoded from its file (SPEC §1): metadata, inputs, the environment allow-list and the
/// steps, every part with the place it was written.
///
/// This is the syntax of a workflow. Whether its actions, parameters and names exist is checked later,
/// against the action catalogue.
public struct Workflow: Sendable {
  public var file: SourceFile
  /// The `name:`, or the file's name without its extension.
  public var name: String
  public var description: String?
  public var icon: String?
  public var color: String?
  /// `phrases:` — what `flow do` answers to with this workflow (SPEC §11); empty when nothing.
  public var phrases: [Located<Phrase>] = []
  public var inputs: [Input]
  /// Environment variables the workflow may read as `${env.NAME}`.
  public var environment: [Located<String>]
  /// `secrets:` — the secrets the workflow may read as `${secret.NAME}`, from the keyring (Secrets.md).
  public var secrets: [Located<String>]
  /// `schedule:` — when the workflow runs unattended: its cron expressions, none when it has no schedule.
  public var schedule: [ScheduleEntry]
  /// `on:` — what starts the workflow by itself, besides its schedule (whose entries `on:` adds to
  /// ``schedule``); empty when nothing does.
  public var triggers: [Trigger] = []
  /// `run:` — what happens when a trigger fires.
  public var runPolicy: RunPolicy = .immediately
  /// `notify-when-run:` — a notification says that a trigger started the workflow.
  public var notifyWhenRun = false
  /// `timezone:` — the zone of every schedule entry that names none; the machine's zone when absent.
  public var timezone: Located<String>?
  public var confirmations: ConfirmationPolicy
  public var steps: [Step]
  /// `on-failure:` — the steps run when a run of this workflow fails (a step failed, the backend could
  /// not be reached, or a question nobody could answer stopped it), with `${run.error}`; never when it
  /// is cancelled. Empty when the workflow has none.
  public var onFailure: [Step] = []
  /// `shared:` — what `flow export` wrote about the file it shared; nil for a file that never was.
  public var shared: Shared?
  /// `workflows:` — the workflows this file runs, embedded by `flow export` so that the file is
  /// self-contained; `run-workflow` looks here first. Only a file's top level has them.
  public var embedded: [Embedded] = []
  /// For a workflow embedded under another's `workflows:`, the name it is embedded under.
  public var embeddedName: String?

  /// What identifies the workflow among those a run meets: its file's path, and for an embedded
  /// workflow the name it is embedded under (`shared.flow.yml#greet.yml`), since it shares its file.
  public var identity: String {
    embeddedName.map { "\(file.path)#\($0)" } ?? file.path
  }

  /// The `shared:` block `flow export` writes: when the workflow was first shared and last changed,
  /// how many actions it has, and which flow wrote it. Dates stay text here (ISO 8601, UTC, to the
  /// second); the decoder checks their shape.
  public struct Shared: Sendable {
    public var created: Located<String>?
    public var modified: Located<String>?
    public var actions: Int?
    public var flowVersion: String?
    public var span: SourceSpan

    public init(
      created: Located<String>? = nil, modified: Located<String>? = nil, actions: Int? = nil,
      flowVersion: String? = nil, span: SourceSpan
    ) {
      self.created = created
      self.modified = modified
      self.actions = actions
      self.flowVersion = flowVersion
      self.span = span
    }
  }

  /// A workflow embedded under `workflows:`, by the reference its `run-workflow` steps use.
  public struct Embedded: Sendable {
    public var name: Located<String>
    public var workflow: Workflow
  }

  /// Shortcuts' choice for an automation: run as soon as the trigger fires, or ask first.
  public enum RunPolicy: String, Sendable, Hashable, CaseIterable {
    case immediately
    /// A notification with Run and Don't Run buttons before step 1.
    case ask
  }

  /// Whether anything but a person starts the workflow: a trigger or a schedule.
  public var startsByItself: Bool { !triggers.isEmpty || !schedule.isEmpty }

  /// How confirmations are answered when nobody is at a terminal.
  public enum ConfirmationPolicy: String, Sendable, Hashable {
    /// Ask, and refuse when nobody can answer unless `--yes` is given.
    case ask
    /// Confirm unattended; shown on import.
    case auto
  }

  /// One of the workflow's inputs (`${input.NAME}`).
  public struct Input: Sendable {
    public var name: Located<String>
    /// The declared type as written (`url`, `[text]`, `Bookmark`), checked against the catalogue later.
    public var type: Located<String>?
    public var prompt: String?
    public var defaultValue: Value?
    /// Asked once when the workflow is imported, not on every run.
    public var askOnImport: Bool
    /// `secret: true`: the value is never written to run history (it is masked in step summaries and
    /// messages).
    public var secret: Bool
  }
}

extension Workflow {
  /// Whether the `input:` of a `run-workflow` step names the nested workflow's inputs (`input: {url: …}`)
  /// rather than giving its single input one value: a mapping always names them when the nested workflow
  /// declares several inputs; when it declares one, only when the mapping's keys are that input's name, so
  /// `input: {url: https://…}` and `input: https://…` mean the same. The rule reads what is written, so the
  /// checker and the run agree on it.
  public static func namesInputs(_ input: Value?, of declared: [String]) -> Bool {
    guard case .dictionary(let entries, _)? = input, !entries.isEmpty else { return false }
    return declared.count != 1 || entries.allSatisfy { declared.contains($0.key.value) }
  }
}

/// One cron expression of `schedule:`, with the zone its entry names (issue 8).
///
/// The expression stays text here: its grammar belongs to `FlowScheduler`, which reads it with
/// ``locator`` so that a bad field is reported at its own column.
public struct ScheduleEntry: Sendable {
  /// The expression as written: `0 9 * * MON-FRI`, `@daily`.
  public var cron: Located<String>
  /// Maps offsets inside the expression to places in the file.
  public var locator: ScalarLocator
  /// `timezone:` of a `{cron, timezone}` entry; the workflow's `timezone:` applies when nil.
  public var timezone: Located<String>?

  public init(cron: Located<String>, locator: ScalarLocator, timezone: Located<String>? = nil) {
    self.cron = cron
    self.locator = locator
    self.timezone = timezone
  }
}

/// A value with the place it was written.
public struct Located<Value: Sendable>: Sendable {
  public var value: Value
  public var span: SourceSpan

  public init(_ value: Value, at span: SourceSpan) {
    self.value = value
    self.span = span
  }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

/// A value as written in a workflow, before anything is resolved: literals, lists, dictionaries, text
/// with `${…}` references, and `ask` (Shortcuts' "Ask Each Time").
public indirect enum Value: Sendable, Hashable {
  case null(SourceSpan)
  case bool(Bool, SourceSpan)
  case integer(Int, SourceSpan)
  case double(Double, SourceSpan)
  /// Text; a text that is exactly one reference passes the referenced value on with its type.
  case text(Template)
  case list([Value], SourceSpan)
  case dictionary([DictionaryEntry], SourceSpan)
  /// The plain word `ask`: ask the person each time the step runs.
  case ask(SourceSpan)

  public struct DictionaryEntry: Sendable, Hashable {
    public var key: Located<String>
    public var value: Value
  }

  public var span: SourceSpan {
    switch self {
    case .null(let span), .bool(_, let span), .integer(_, let span), .double(_, let span), .list(_, let span),
      .dictionary(_, let span), .ask(let span):
      span
    case .text(let template): template.span
    }
  }

  /// Every reference inside the value, in order.
  public var references: [Reference] {
    switch self {
    case .text(let template): template.references
    case .list(let items, _): items.flatMap(\.references)
    case .dictionary(let entries, _): entries.flatMap(\.value.references)
    default: []
    }
  }
}

/// One step: what it does, and the step keys that apply to any step (SPEC §1).
///
/// A few words: what most steps carry (the kind, the span, `as:`, `on-error:`) is stored in line, and
/// the keys few steps carry (`when`, `where`, `confirm`, `retry`, `timeout`) in one shared box, nil when
/// the step has none of them. Written in line, they made a step some 300 bytes, and a list of 20,000
/// steps the largest thing a check kept in memory (issue 30).
public struct Step: Sendable {
  public var kind: Kind
  public var span: SourceSpan
  /// `as:` — the name of the step's output; for `for-each`, the name of each item.
  public var name: Located<String>?
  public var onError: ErrorPolicy
  private var modifiers: Modifiers?

  init(kind: Kind, span: SourceSpan, onError: ErrorPolicy) {
    self.kind = kind
    self.span = span
    self.onError = onError
  }

  /// `when:` — run only if this holds.
  public var when: Condition? {
    get { modifiers?.when }
    set { change { $0.when = newValue } }
  }

  /// `where:` — of the list the action outputs, keep the items for which this holds (`${item}` is the
  /// item; a bare name on the left of a comparison is its property).
  public var `where`: Located<Condition>? {
    get { modifiers?.where }
    set { change { $0.where = newValue } }
  }

  /// `confirm:` — ask before running, with this message.
  public var confirm: Confirmation? {
    get { modifiers?.confirm }
    set { change { $0.confirm = newValue } }
  }

  public var retry: Retry? {
    get { modifiers?.retry }
    set { change { $0.retry = newValue } }
  }

  public var timeout: Located<Duration>? {
    get { modifiers?.timeout }
    set { change { $0.timeout = newValue } }
  }

  /// Sets the step keys kept out of line: a new box each time, so that copies of the step never share a
  /// change (only the decoder sets them, once per key written).
  private mutating func change(_ body: (inout Modifiers.Values) -> Void) {
    var values = modifiers?.values ?? Modifiers.Values()
    body(&values)
    modifiers = values.isEmpty ? nil : Modifiers(values)
  }

  /// The step keys few steps carry, boxed.
  private final class Modifiers: Sendable {
    struct Values: Sendable {
      var when: Condition?
      var `where`: Located<Condition>?
      var confirm: Confirmation?
      var retry: Retry?
      var timeout: Located<Duration>?

      var isEmpty: Bool { when == nil && `where` == nil && confirm == nil && retry == nil && timeout == nil }
    }

    let values: Values
    var when: Condition? { values.when }
    var `where`: Located<Condition>? { values.where }
    var confirm: Confirmation? { values.confirm }
    var retry: Retry? { values.retry }
    var timeout: Located<Duration>? { values.timeout }

    init(_ values: Values) { self.values = values }
  }

  public enum Kind: Sendable {
    case action(ActionCall)
    case ifBlock(Condition, then: [Step], otherwise: [Step])
    case repeatBlock(count: Value, body: [Step])
    case forEach(items: Value, body: [Step])
    case menu(prompt: Value, options: [MenuOption], defaultOption: Located<String>?)
    case stop(output: Value?)
    case runWorkflow(workflow: Value, input: Value?)
    case set(variable: Located<String>, value: Value?)
    case append(variable: Located<String>, value: Value?)
  }

  public enum ErrorPolicy: String, Sendable, Hashable {
    case stop
    case `continue`
  }

  public struct Retry: Sendable, Hashable {
    /// The most attempts a step may have: a hundred, a day's worth at a quarter-hour's delay.
    public static let maximumAttempts = 100
    public var attempts: Int
    public var delay: Duration
  }

  public struct Confirmation: Sendable {
    /// The question; nil asks "Run step N (action)?".
    public var message: Template?
    public var span: SourceSpan
  }

  /// What the positions of `on-failure:` steps start with, so that they never mix with the positions of
  /// `steps:` in messages, run history and the card: `on-failure.1`, `on-failure.2.1`.
  public static let onFailurePrefix = "on-failure."

  /// How messages name the step at `position`: "step 3", "on-failure step 1".
  public static func describe(position: String) -> String {
    position.hasPrefix(onFailurePrefix)
      ? "on-failure step \(position.dropFirst(onFailurePrefix.count))" : "step \(position)"
  }

  /// The label of the step in messages: its action id or block keyword.
  public var label: String {
    if case .action(let call) = kind { return call.id.value }
    return kind.keyword?.rawValue ?? ""
  }
}

/// What the walks over steps ask of a block, so that they need not switch over the kinds themselves:
/// adding a kind is a compile error here, and the walks take its bodies with no change.
extension Step.Kind {
  /// The block's keyword; nil for an action.
  public var keyword: BlockKeyword? {
    switch self {
    case .action: nil
    case .ifBlock: .if
    case .repeatBlock: .repeat
    case .forEach: .forEach
    case .menu: .menu
    case .stop: .stop
    case .runWorkflow: .runWorkflow
    case .set: .set
    case .append: .append
    }
  }

  /// The lists of steps inside the block, in the order the docs write them: `then` and `else`, `do`, each
  /// menu option's. Empty for a step that holds none.
  /// The number each body's first step has under the block: one count runs through the bodies, so the
  /// `else:` of an `if` and each option of a `menu` go on from the body before (`3.1` is the first step
  /// of `then:`, `3.2` the first of `else:` after a one-step `then:`), and no two steps of the file share
  /// a position (Running.md, WorkflowFormat.md).
  public var bodyStarts: [Int] {
    var next = 1
    return bodies.map { body in
      defer { next += body.count }
      return next
    }
  }

  public var bodies: [[Step]] {
    switch self {
    case .ifBlock(_, let then, let otherwise): [then, otherwise]
    case .repeatBlock(_, let body), .forEach(_, let body): [body]
    case .menu(_, let options, _): options.map(\.steps)
    case .action, .stop, .runWorkflow, .set, .append: []
    }
  }

  /// The variable a `set` or `append` step writes.
  public var variable: Located<String>? {
    switch self {
    case .set(let variable, _), .append(let variable, _): variable
    case .action, .ifBlock, .repeatBlock, .forEach, .menu, .stop, .runWorkflow: nil
    }
  }
}

/// An action and what the step passes it.
public struct ActionCall: Sendable {
  public var id: Located<String>
  public var arguments: Arguments

  public enum Arguments: Sendable {
    /// `- raindrop.get-collections` or `- show:` with nothing after it.
    case none
    /// A scalar or list for the action's primary parameter: `- show: "Done"`.
    case primary(Value)
    /// A mapping of parameter keys; for an action whose primary parameter is a dictionary, the mapping
    /// is that dictionary instead.
    case named([Value.DictionaryEntry], SourceSpan)
  }
}

/// One choice of a `menu`.
public struct MenuOption: Sendable {
  public var label: Located<String>
  public var steps: [Step]
}
