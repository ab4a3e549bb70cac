/// The top level of a workflow file (SPEC §1): which keys exist, what each holds, which are required.
///
/// One table, read by the decoder, `flow schema` and the docs, so that a key is described in exactly one
/// place.
public enum WorkflowFormat {
  /// The format version this build reads and writes (`flow: 1`).
  public static let version = 1

  /// What a top-level key holds.
  public enum Shape: Sendable, Hashable {
    /// The format version: the number ``WorkflowFormat/version``.
    case version
    /// One line of text (any scalar but null).
    case text
    /// Text from a fixed set of names.
    case choice([String])
    /// `input:`: the mapping of input declarations (``WorkflowFormat/inputKeys``).
    case inputs
    /// A sequence of text.
    case textList
    /// A list of steps.
    case steps
    /// `schedule:`: a cron expression, a list of them, or a mapping with `cron` and `timezone`, or a list
    /// mixing expressions and such mappings.
    case schedule
    /// `on:`: a list of triggers (``TriggerFormat``).
    case triggers
    /// `true` or `false`.
    case flag
    /// `shared:`: the mapping of ``WorkflowFormat/sharedKeys``.
    case shared
    /// `workflows:`: workflows by name, each a whole workflow (without `shared` or `workflows`).
    case workflows
  }

  public struct Key: Sendable, Hashable {
    public let name: String
    public let shape: Shape
    public let isRequired: Bool
    public let summary: String
  }

  /// Shortcuts' palette of workflow colours.
  public static let colors = [
    "red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo", "purple", "pink", "brown",
    "gray", "light-gray", "dark-gray",
  ]

  /// Every top-level key, in the order the docs present them.
  public static let keys: [Key] = [
    Key(name: "flow", shape: .version, isRequired: true, summary: "the format version; always 1"),
    Key(name: "name", shape: .text, isRequired: false, summary: "the workflow's name; defaults to the file name"),
    Key(name: "description", shape: .text, isRequired: false, summary: "one or two sentences on what it does"),
    Key(name: "icon", shape: .text, isRequired: false, summary: "a symbol name shown by 'flow show' and on import"),
    Key(name: "color", shape: .choice(colors), isRequired: false, summary: "a palette colour"),
    Key(
      name: "phrases", shape: .textList, isRequired: false,
      summary: "what 'flow do' answers to, like 'tidy my downloads'; '${NAME}' takes an input from the words"),
    Key(name: "input", shape: .inputs, isRequired: false, summary: "the inputs the workflow takes, by name"),
    Key(name: "env", shape: .textList, isRequired: false, summary: "environment variables the workflow may read"),
    Key(
      name: "secrets", shape: .textList, isRequired: false,
      summary: "secrets from the keyring the workflow reads as ${secret.NAME} ('flow secrets set NAME')"),
    Key(
      name: "on", shape: .triggers, isRequired: false,
      summary: "what starts the workflow by itself: files, drives, Wi-Fi, power, session, hotkeys, apps, times"),
    Key(
      name: "run", shape: .choice(Workflow.RunPolicy.allCases.map(\.rawValue)), isRequired: false,
      summary: "when a trigger fires: 'immediately' (default), or 'ask' with a notification first"),
    Key(
      name: "notify-when-run", shape: .flag, isRequired: false,
      summary: "true: a notification says when a trigger started the workflow"),
    Key(
      name: "schedule", shape: .schedule, isRequired: false,
      summary: "when to run unattended: a cron expression, a list of them, or 'cron' with 'timezone'"),
    Key(
      name: "timezone", shape: .text, isRequired: false,
      summary: "the IANA time zone of 'schedule'; default the machine's"),
    Key(
      name: "confirmations", shape: .choice(["ask", "auto"]), isRequired: false,
      summary: "'auto' confirms steps unattended; shown when the workflow is imported"),
    Key(name: "steps", shape: .steps, isRequired: true, summary: "the actions to run, in order"),
    Key(
      name: "on-failure", shape: .steps, isRequired: false,
      summary: "steps to run when the run fails (not when it is cancelled), with ${run.error} and ${run.id}"),
    Key(
      name: "shared", shape: .shared, isRequired: false,
      summary: "written by 'flow export': when the workflow was shared and changed, its actions, the flow that wrote it"
    ),
    Key(
      name: "workflows", shape: .workflows, isRequired: false,
      summary: "written by 'flow export': the workflows it runs, by the name 'run-workflow' uses, looked in first"),
  ]

  /// Top-level keys a workflow embedded under `workflows:` may not have: it is part of its file.
  public static let fileOnlyKeys: Set<String> = ["shared", "workflows"]

  /// Whether `name` may name a secret (`secrets:`, `${secret.NAME}`, `flow secrets set NAME`): letters,
  /// digits, `-` and `_`, starting with a letter or digit, at most 100 characters.
  public static func isSecretName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 100 else { return false }
    let isWord = { (scalar: Unicode.Scalar) in
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
    return isWord(first) && name.unicodeScalars.allSatisfy { isWord($0) || $0 == "-" || $0 == "_" }
  }

  static let keysByName = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })

  // MARK: - Sharing

  /// The keys of the `shared:` block.
  public static let sharedKeys: [Field] = [
    Field(name: "created", summary: "when the workflow was first shared: ISO 8601 in UTC, like 2026-11-23T09:15:00Z"),
    Field(name: "modified", summary: "when it last changed before it was shared, in the same form"),
    Field(name: "actions", summary: "how many actions it has, as 'flow show' counts them"),
    Field(name: "flow-version", summary: "the version of flow that exported it"),
  ]

  // MARK: - Inputs and steps

  /// A key inside an input declaration, a step, or a block.
  public struct Field: Sendable, Hashable {
    public let name: String
    public let summary: String
  }

  /// The keys of an input declaration (`input: {url: {type: url, prompt: …}}`).
  public static let inputKeys: [Field] = [
    Field(name: "type", summary: "the input's type: text, number, url, \"[text]\", bookmark…; default any"),
    Field(name: "prompt", summary: "the question asked when the value is missing"),
    Field(name: "default", summary: "the value used when none is given"),
    Field(name: "ask-on-import", summary: "ask once when the workflow is imported, and keep the answer as the default"),
    Field(name: "secret", summary: "true: never written to run history (masked in step summaries and messages)"),
  ]

  /// Keys any step may carry besides what it does (SPEC §1).
  public static let stepKeys: [Field] = [
    Field(name: "as", summary: "names the step's output (${NAME}); for 'for-each', names each item"),
    Field(name: "when", summary: "run the step only if this condition holds"),
    Field(
      name: "where",
      summary: "keep the items of the list the action outputs for which this condition holds (actions only)"),
    Field(name: "confirm", summary: "ask before running: the question, or true"),
    Field(name: "on-error", summary: "'stop' (default) or 'continue': a failed step then outputs nothing"),
    Field(name: "retry", summary: "run a failed step again: a number of attempts, or {attempts, delay}"),
    Field(name: "timeout", summary: "fail an action that takes longer, such as 30s (actions only)"),
  ]

  /// A block: the keyword that starts it, what its value is, and the keys that belong to it.
  public struct Block: Sendable, Hashable {
    public let id: BlockKeyword
    public let summary: String
    public let head: Head
    public let keys: [BlockKey]
    /// How the block is written, shown when its keyword stands alone without its value (`- repeat`).
    public let example: String

    public var keyword: String { id.rawValue }
  }

  /// What a block's keyword holds: `if: CONDITION`, `repeat: COUNT`.
  public enum Head: Sendable, Hashable {
    /// A condition, as `when:` takes.
    case condition
    /// A whole number of times, from 0 to ``WorkflowFormat/repeatLimit``.
    case count
    /// A variable's name.
    case name
    /// One line of text.
    case text
    /// Any value.
    case value
    /// Any value, or nothing: the keyword may stand alone (`- stop`).
    case optionalValue
  }

  /// The most passes `repeat` may be written with.
  public static let repeatLimit = 1_000_000_000

  /// A key that belongs to a block (`then`, `do`, `options`…).
  public struct BlockKey: Sendable, Hashable {
    public let name: String
    public let summary: String
    public let holds: Holds
    public let isRequired: Bool

    public enum Holds: Sendable, Hashable {
      /// A list of steps; `purpose` ends the help when a required list is missing ("to run on each pass").
      case steps(purpose: String)
      /// Each choice's label and its steps.
      case choices
      /// One line of text.
      case text
      /// Any value.
      case value
    }
  }

  /// Shortcuts' blocks and the variables (SPEC §1), in the order the docs present them.
  public static let blocks = BlockKeyword.allCases.map(block)

  static let blocksByKeyword = Dictionary(uniqueKeysWithValues: blocks.map { ($0.keyword, $0) })

  /// The one description of each block: the decoder's messages and examples, `flow schema` and the
  /// docs test read it.
  public static func block(_ keyword: BlockKeyword) -> Block {
    switch keyword {
    case .if:
      Block(
        id: keyword, summary: "If / Otherwise: run 'then' when the condition holds, else 'else'", head: .condition,
        keys: [
          BlockKey(
            name: "then", summary: "the steps run when the condition holds",
            holds: .steps(purpose: "to run when the condition holds"), isRequired: true),
          BlockKey(
            name: "else", summary: "the steps run otherwise", holds: .steps(purpose: "to run otherwise"),
            isRequired: false),
        ],
        example: "if: ${ready}")
    case .repeat:
      Block(
        id: keyword, summary: "Repeat: run 'do' this many times (${index} counts from 1)", head: .count,
        keys: [
          BlockKey(
            name: "do", summary: "the steps to repeat", holds: .steps(purpose: "to run on each pass"),
            isRequired: true)
        ],
        example: "repeat: 3")
    case .forEach:
      Block(
        id: keyword, summary: "Repeat with Each: run 'do' once per item of a list (${item}, or 'as')", head: .value,
        keys: [
          BlockKey(
            name: "do", summary: "the steps run for each item", holds: .steps(purpose: "to run on each pass"),
            isRequired: true)
        ],
        example: "for-each: ${items}")
    case .menu:
      Block(
        id: keyword, summary: "Choose from Menu: the prompt; each option runs its own steps", head: .value,
        keys: [
          BlockKey(name: "options", summary: "each choice's label and its steps", holds: .choices, isRequired: true),
          BlockKey(
            name: "default", summary: "the choice taken when nobody can answer", holds: .text, isRequired: false),
        ],
        example: "menu: What next?")
    case .stop:
      Block(
        id: keyword, summary: "Stop and Output: end the run, with this value as its result", head: .optionalValue,
        keys: [], example: "stop")
    case .runWorkflow:
      Block(
        id: keyword, summary: "Run Workflow: a file relative to this one, or a library name", head: .text,
        keys: [
          BlockKey(
            name: "input", summary: "the nested workflow's input, or its inputs by name", holds: .value,
            isRequired: false)
        ],
        example: "run-workflow: other.yml")
    case .set:
      Block(
        id: keyword, summary: "Set Variable: the variable's name", head: .name,
        keys: [
          BlockKey(
            name: "value", summary: "the value; the previous step's output when left out", holds: .value,
            isRequired: false)
        ],
        example: "set: name")
    case .append:
      Block(
        id: keyword, summary: "Add to Variable: the list variable's name", head: .name,
        keys: [
          BlockKey(
            name: "value", summary: "the value to add; the previous step's output when left out", holds: .value,
            isRequired: false)
        ],
        example: "append: name")
    }
  }
}

/// The keywords of the blocks, in the order the docs present them. Each is a case of ``Step/Kind``;
/// the switches over both have no `default:`, so a new block is a compile error wherever it needs code.
public enum BlockKeyword: String, CaseIterable, Sendable, Hashable {
  case `if`
  case `repeat`
  case forEach = "for-each"
  case menu
  case stop
  case runWorkflow = "run-workflow"
  case set
  case append
}

/// The variables flow provides (SPEC §1): `${previous}`, `${input.url}`, `${run.id}`. The decoder keeps
/// names from reusing them; the checker and the run switch over them without `default:`.
public enum MagicVariable: String, CaseIterable, Sendable, Hashable {
  /// The previous step's output.
  case previous
  /// The workflow's inputs: `${input.NAME}`, or with one input that input.
  case input
  /// The item of the innermost loop.
  case item
  /// The pass of the innermost loop, from 1.
  case index
  /// The time the reference is read.
  case now
  /// `${workflow.name}`.
  case workflow
  /// `${run.id}`, and `${run.error}` inside `on-failure:`.
  case run
  /// `${env.NAME}`, for the names listed under `env:`.
  case env
  /// What fired, in a run a trigger started (SPEC §10): `${trigger.file}`, `${trigger.ssid}`.
  case trigger
  /// `${secret.NAME}`, for the names listed under `secrets:`: a value from the keyring, never shown.
  case secret

  /// The variable `name` names, nil for any other name. Written out, and inlined into the run's lookup of
  /// each reference: the derived `init(rawValue:)` searches a table, three times as slow. Told apart by
  /// length first, so that a step's own name (`t1`, `saved`) is compared with at most three of them.
  @inlinable public init?(_ name: String) {
    switch name.utf8.count {
    case 3:
      switch name {
      case "now": self = .now
      case "run": self = .run
      case "env": self = .env
      default: return nil
      }
    case 4 where name == "item": self = .item
    case 5:
      switch name {
      case "input": self = .input
      case "index": self = .index
      default: return nil
      }
    case 6 where name == "secret": self = .secret
    case 7 where name == "trigger": self = .trigger
    case 8:
      switch name {
      case "previous": self = .previous
      case "workflow": self = .workflow
      default: return nil
      }
    default: return nil
    }
  }

  /// Whether the name is defined only inside `repeat` and `for-each`.
  public var isLoopVariable: Bool { self == .item || self == .index }

  /// Whether the name is read through a property only (`${run.id}`, not `${run}`).
  public var needsProperty: Bool { self == .workflow || self == .run || self == .env || self == .secret }
}
