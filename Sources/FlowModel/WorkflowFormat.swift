/// The top level of a workflow file (SPEC §1): which keys exist, what each holds, which are required.
///
/// One table, read by the checker (and later by `flow schema` and the docs), so that a key is described
/// in exactly one place.
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
    /// A mapping (its entries are checked by later stages).
    case mapping
    /// A sequence of text.
    case textList
    /// A sequence (its items are checked by later stages).
    case sequence
    /// `schedule:`: a cron expression, a list of them, or a mapping with `cron` and `timezone`, or a list
    /// mixing expressions and such mappings.
    case schedule
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
    Key(name: "input", shape: .mapping, isRequired: false, summary: "the inputs the workflow takes, by name"),
    Key(name: "env", shape: .textList, isRequired: false, summary: "environment variables the workflow may read"),
    Key(
      name: "schedule", shape: .schedule, isRequired: false,
      summary: "when to run unattended: a cron expression, a list of them, or 'cron' with 'timezone'"),
    Key(
      name: "timezone", shape: .text, isRequired: false,
      summary: "the IANA time zone of 'schedule'; default the machine's"),
    Key(
      name: "confirmations", shape: .choice(["ask", "auto"]), isRequired: false,
      summary: "'auto' confirms steps unattended; shown when the workflow is imported"),
    Key(name: "steps", shape: .sequence, isRequired: true, summary: "the actions to run, in order"),
  ]

  static let keysByName = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })
}
