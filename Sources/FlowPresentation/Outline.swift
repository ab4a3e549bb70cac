import FlowModel

/// A workflow drawn the way the Shortcuts editor draws one, as values: a header, the summary line, the
/// inputs, the schedule, and every step as a block whose parameter summary reads as a sentence. Built by
/// ``OutlineBuilder``, drawn by ``OutlineRenderer``, and printed as JSON by `flow show --json`.
public struct Outline: Sendable, Encodable {
  public var name: String
  public var description: String?
  public var icon: String?
  /// A palette name (`blue`); the renderer paints the name with it.
  public var color: String?
  /// `phrases:` as written, for `flow do`; nil when it has none (and then left out of the JSON).
  public var phrases: [String]?
  /// The file as it was named.
  public var file: String
  public var summary: SummaryLine
  public var inputs: [InputLine]
  /// When it runs unattended: one entry per cron expression.
  public var schedule: [Capabilities.Schedule]
  public var steps: [OutlineStep]
  /// `on-failure:`: the steps run when the run fails, positioned as a run numbers them (`on-failure.1`).
  public var onFailure: [OutlineStep] = []
  public var capabilities: Capabilities
  /// The workflows it runs, each once, in the order its steps first run them — literal references,
  /// found as a run finds them — with their steps: what the card's Actions line and the share page
  /// show besides the workflow's own, so that nothing that will run is left out (issue 16).
  public var workflows: [Nested] = []

  /// A workflow run by `run-workflow`, drawn as the top one is.
  public struct Nested: Sendable, Encodable {
    public var name: String
    /// As messages name it: `FILE#NAME` for one carried in the file, else its path.
    public var file: String
    /// Whether it travels in the file (under `workflows:`) rather than coming from the reader's disk.
    public var carried: Bool
    public var steps: [OutlineStep]
  }

  /// One input: its name, type, and how it gets a value.
  public struct InputLine: Sendable, Encodable {
    public var name: String
    /// The type's name ("List of Text"), or as written when flow does not know it.
    public var type: String?
    public var prompt: String?
    public var defaultValue: StyledText?
    public var askOnImport: Bool

    enum CodingKeys: String, CodingKey { case name, type, prompt, defaultValue = "default", askOnImport }
  }
}

/// One step: a sentence, its annotations, the mark for the margin, and for blocks the steps inside.
public struct OutlineStep: Sendable, Encodable {
  /// What the step is, as the JSON names it: "action", or its block's keyword ("if", "for-each").
  public struct Kind: Sendable, Hashable, Encodable {
    /// Nil for an action.
    public var keyword: BlockKeyword?

    public var name: String { keyword?.rawValue ?? "action" }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(name)
    }
  }

  /// As `flow run` numbers steps: `3`, `3.1` for the first step inside step 3.
  public var position: String
  public var kind: Kind
  /// The action id, for action steps.
  public var action: String?
  /// What the step does, as a sentence with its values in it; for a block, its first line.
  public var sentence: StyledText
  public var annotations: [Annotation]
  /// What the step may change, delete or contact, for the margin: "changes · api.raindrop.io".
  public var mark: Mark?
  /// The steps inside a block: `then` and Otherwise, `do`, or one per menu choice.
  public var branches: [Branch]
  /// The line that closes a block: "End If", "End Repeat", "End Menu".
  public var end: String?

  /// A block's steps, and the line that opens them after the first (Otherwise, a menu choice).
  public struct Branch: Sendable, Encodable {
    /// nil for the first branch of an `if` and for loop bodies, whose header opens them.
    public var label: StyledText?
    public var steps: [OutlineStep]
  }

  /// A step key shown under the sentence.
  public struct Annotation: Sendable, Encodable {
    public enum Kind: String, Sendable, Encodable {
      /// `as:`: the name of the step's output.
      case output
      case when
      /// `confirm:`, or an intent that always asks.
      case confirm
      /// A confirmation `confirmations: auto` answers by itself.
      case unattended
      case retry
      case timeout
      case onError = "on-error"
      /// The margin's words, moved under the step when the terminal is too narrow for a margin.
      case effect
    }

    public var kind: Kind
    public var text: StyledText
  }

  /// What a step may do to the world.
  public struct Mark: Sendable, Encodable {
    /// `read-only`, `changes` or `destructive`; `unknown` for a nested workflow chosen at run time.
    public var effect: String
    public var hosts: [String]
    public var anyHost: Bool
    /// The margin's words.
    public var text: String
  }
}
