import Synchronization

/// A step's `confirm:` (SPEC §3), while its action runs. The action's own question — which files, for
/// good or not — is asked with the step's words in front of it, as one question; an action that has no
/// question of its own is asked the step's words alone, just before it acts. The step's text adds to
/// the action's and never stands in for it.
///
/// The interpreter hands it to the step's action in its ``IntentContext/question``; the action's runner
/// asks through it.
public final class StepQuestion: Sendable {
  /// The step the interpreter is running, while it runs (read only for steps with `confirm:`).
  @TaskLocal public static var current: StepQuestion?

  /// The step's words; nil for `confirm: true`, which needs no words before an action's own question.
  let words: String?
  /// What is asked when the action has no question of its own and the step gave no words.
  let fallback: String
  private let asked = Atomic(false)
  private let refused = Atomic(false)

  /// Whether the person said no to the question that carried the step's words.
  public var declined: Bool { refused.load(ordering: .relaxed) }

  public init(words: String?, fallback: String) {
    self.words = words
    self.fallback = fallback
  }

  /// Asks `request`, an action's own question, with the step's words in front when the step has some.
  func ask(_ request: ConfirmationRequest, prompter: any Prompter) async throws -> Bool {
    guard !asked.exchange(true, ordering: .relaxed) else { return try await prompter.requestConfirmation(request) }
    var request = request
    if let words { request.dialog = words + " " + request.dialog }
    let confirmed = try await prompter.requestConfirmation(request)
    if !confirmed { refused.store(true, ordering: .relaxed) }
    return confirmed
  }

  /// Before an action acts: the step's question alone, when the action asked none of its own.
  func askBeforeActing(intentID: String, prompter: any Prompter) async throws {
    guard !asked.exchange(true, ordering: .relaxed) else { return }
    let confirmed = try await prompter.requestConfirmation(
      ConfirmationRequest(kind: .alert, origin: PromptOrigin(intentID: intentID), dialog: words ?? fallback))
    if !confirmed {
      refused.store(true, ordering: .relaxed)
      throw AppIntentError.userCancelled
    }
  }
}

extension IntentContext {
  /// Asks an action's own question, through the step's `confirm:` when it has one.
  func confirm(_ request: ConfirmationRequest) async throws -> Bool {
    if let question { return try await question.ask(request, prompter: prompter) }
    return try await prompter.requestConfirmation(request)
  }
}
