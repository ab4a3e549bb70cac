/// Asks the person something on an intent's behalf: a missing value, a choice, a confirmation.
///
/// Owned by the runtime (SPEC §5): at a terminal it prompts; unattended it fails with an error that says
/// how to supply the answer (`--input`, `--yes`). ``ScriptedPrompter`` answers from a script.
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
  /// step. What deleting files for good asks (``MachineAccess/Kind/deletesFiles``): nothing brings them back.
  public var needsExplicitYes = false

  public init(kind: Kind, origin: PromptOrigin, dialog: String, isDestructive: Bool = false) {
    self.kind = kind
    self.origin = origin
    self.dialog = dialog
    self.isDestructive = isDestructive
  }
}

/// A prompter that answers from a script, in order, and records what was asked.
///
/// For tests, and for anything that knows its answers ahead. When the script has no answer of the kind
/// asked for, it fails with ``AppIntentError/needsValue(_:dialog:)`` (or a cancelled confirmation), as an
/// unattended run would.
public actor ScriptedPrompter: Prompter {
  /// One scripted answer.
  public enum Answer: Sendable, Hashable {
    case value(FlowValue)
    case choice(Int)
    case choices([Int])
    case confirmation(Bool)
  }

  private var answers: [Answer]
  /// Every request made so far, in order, as its dialog text.
  public private(set) var asked: [String] = []
  /// Every value request, with the problem that caused a re-ask.
  public private(set) var valueRequests: [ValueRequest] = []

  public init(_ answers: [Answer] = []) { self.answers = answers }

  /// Answers not used yet.
  public var remaining: [Answer] { answers }

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    asked.append(request.dialog)
    valueRequests.append(request)
    guard case .value(let value)? = answers.first else {
      throw AppIntentError.needsValue(request.origin, dialog: request.dialog)
    }
    answers.removeFirst()
    return value
  }

  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    asked.append(request.dialog)
    switch answers.first {
    case .choice(let index)?:
      answers.removeFirst()
      return [index]
    case .choices(let indices)?:
      answers.removeFirst()
      return indices
    default:
      throw AppIntentError.needsChoice(request.origin, dialog: request.dialog, options: request.options)
    }
  }

  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    asked.append(request.dialog)
    guard case .confirmation(let answer)? = answers.first else {
      throw AppIntentError.confirmationRequired(request.origin, dialog: request.dialog)
    }
    answers.removeFirst()
    return answer
  }
}
