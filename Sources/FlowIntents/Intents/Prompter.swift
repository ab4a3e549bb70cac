/// Asks the person something on an intent's behalf: a missing value, a choice, a confirmation.
///
/// Owned by the runtime (SPEC §5): at a terminal it prompts; unattended it fails with an error that says
/// how to supply the answer (`--input`, `--yes`). The tests answer from a script (FlowTestSupport).
/// Coercion and re-asking stay in the framework: a prompter returns what the person typed, and is asked
/// again with ``ValueRequest/problem`` set when the answer did not fit.
public protocol Prompter: Sendable {
  func requestValue(_ request: ValueRequest) async throws -> FlowValue
  /// Returns the indices of the chosen options: one, or any number when `allowsMultiple`.
  func requestChoice(_ request: ChoiceRequest) async throws -> [Int]
  func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool
}

/// Who is asking: the intent and, when it is about one, the parameter.
public struct PromptOrigin: Sendable, Hashable {
  /// The action id (`raindrop.save-bookmark`), when known.
  public var intentID: String?
  /// The parameter key (`url`), when the question is about a parameter.
  public var parameterKey: String?
  /// The parameter's title ("URL").
  public var parameterTitle: String?

  public init(intentID: String? = nil, parameterKey: String? = nil, parameterTitle: String? = nil) {
    self.intentID = intentID
    self.parameterKey = parameterKey
    self.parameterTitle = parameterTitle
  }

  /// The parameter being resolved, so that an entity lookup deep inside can say whom it asks for.
  @TaskLocal public static var current: PromptOrigin?
}

/// A request for a value: a required parameter without one, `requestValue`, or the `ask` action.
public struct ValueRequest: Sendable, Hashable {
  /// Why the value is asked for.
  public enum Kind: Sendable, Hashable {
    /// A required parameter has no value (SPEC §3's last resort).
    case missingParameter
    /// The workflow asks on purpose (`ask`, or a parameter given `ask`).
    case question
  }

  public var kind: Kind
  public var origin: PromptOrigin
  /// The question: the parameter's `requestValueDialog`, or its title.
  public var dialog: String
  public var valueType: ValueType
  /// Offered when the person just presses return.
  public var defaultAnswer: FlowValue?
  /// Why the previous answer was refused ("expected a number, got 'lots'"); nil on the first ask.
  public var problem: String?
  /// The answer is a secret (a `secret: true` input, a token): typed without being shown, never echoed.
  public var masked = false
  /// The numbers allowed, for a parameter with an `inclusiveRange`; said with the question.
  public var range: ClosedRange<Double>?
  /// The answer is text that may hold several lines (`ask` with `allow-multiple-lines`).
  public var multiline = false

  public init(
    kind: Kind, origin: PromptOrigin, dialog: String, valueType: ValueType, defaultAnswer: FlowValue? = nil,
    problem: String? = nil
  ) {
    self.kind = kind
    self.origin = origin
    self.dialog = dialog
    self.valueType = valueType
    self.defaultAnswer = defaultAnswer
    self.problem = problem
  }
}

/// A request to pick among options: disambiguation of an entity, or `choose-from-list`.
public struct ChoiceRequest: Sendable, Hashable {
  /// Why a choice is asked for.
  public enum Kind: Sendable, Hashable {
    /// Several entities matched some text; which one was meant?
    case disambiguation
    /// The workflow offers a list (`choose-from-list`, `menu`).
    case choice
  }

  public var kind: Kind
  public var origin: PromptOrigin
  public var dialog: String
  /// What each option shows, in order.
  public var options: [String]
  public var allowsMultiple: Bool

  public init(kind: Kind, origin: PromptOrigin, dialog: String, options: [String], allowsMultiple: Bool = false) {
    self.kind = kind
    self.origin = origin
    self.dialog = dialog
    self.options = options
    self.allowsMultiple = allowsMultiple
  }
}

/// A yes/no question before something happens.
public struct ConfirmationRequest: Sendable, Hashable {
  /// What is being confirmed.
  public enum Kind: Sendable, Hashable {
    /// The intent declares `requiresConfirmation`, or calls `requestConfirmation` (delete-bookmark).
    case intent
    /// A parameter's value wants confirming (`$title.requestConfirmation(for:dialog:)`).
    case parameter
    /// The `confirm` action: an alert whose Cancel stops the run.
    case alert
  }

  public var kind: Kind
  public var origin: PromptOrigin
  public var dialog: String
  /// Whether the action cannot be undone (``SideEffect/destructive``); a terminal may word it so.
  public var isDestructive: Bool
  /// Only the person, or `--yes`, may answer: not `confirmations: auto`, nor a `confirm:` block around the
  /// step (``ConfirmationPolicy/needsPerson(_:shared:)``): deleting files for good, and in a shared file
  /// replacing one or running a command.
  public var needsExplicitYes = false
  /// What the action does to the machine, by kind: a dialog says it with the card's words
  /// (``MachineAccess/Kind/words``) beside a destructive question.
  public var access: [MachineAccess.Kind] = []

  public init(kind: Kind, origin: PromptOrigin, dialog: String, isDestructive: Bool = false) {
    self.kind = kind
    self.origin = origin
    self.dialog = dialog
    self.isDestructive = isDestructive
  }
}
