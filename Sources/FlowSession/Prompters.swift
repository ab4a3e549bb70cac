import FlowDiagnostics
import FlowIntents
import FlowRuntime
import FoundationEssentials

/// Answers nothing (SPEC §5): without a terminal, or with `--no-input`, every question fails at once
/// with a help line naming what would have answered it. Never reads standard input.
public struct UnattendedPrompter: Prompter {
  /// Names of the workflow's inputs, so a missing one can name its `--input`.
  public let inputNames: Set<String>

  public init(inputNames: Set<String> = []) { self.inputNames = inputNames }

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    var error = AppIntentError.needsValue(request.origin, dialog: request.dialog)
    if let key = request.origin.parameterKey, request.origin.intentID == nil, inputNames.contains(key) {
      error.message = "input '\(key)' needs a value"
      error.help = "pass --input \(key)=… or run at a terminal"
    } else if let key = request.origin.parameterKey {
      error.help = "give '\(key)' a value in the step, or run at a terminal"
    } else {
      error.help = "run at a terminal to answer"
    }
    throw error
  }

  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    var error = AppIntentError.needsChoice(request.origin, dialog: request.dialog, options: request.options)
    error.help = "the choices are \(List.or(request.options.map { "'\($0)'" })); run at a terminal to choose"
    throw error
  }

  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    var error = AppIntentError.confirmationRequired(request.origin, dialog: request.dialog)
    error.help = UnattendedCheck.yesHelp
    throw error
  }
}

/// `--yes`: confirms every confirmation, and passes the other questions on. Standing in for
/// `confirmations: auto` (not `explicit`), it leaves to the person what only they or `--yes` may answer
/// (deleting files for good).
public struct ConfirmingPrompter: Prompter {
  public let base: any Prompter
  public var explicit = true

  public init(base: any Prompter, explicit: Bool = true) {
    self.base = base
    self.explicit = explicit
  }

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue { try await base.requestValue(request) }
  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] { try await base.requestChoice(request) }
  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    if request.needsExplicitYes, !explicit { return try await base.requestConfirmation(request) }
    return true
  }
}

extension ConfirmationPolicy {
  /// The prompter every run asks through, for one policy (issue 28): `yes` (the person's `--yes`, or a
  /// dry run, which performs nothing) confirms everything; `auto` (`confirmations: auto`) confirms when
  /// nobody can answer (`somebodyAnswers` false: no terminal, a client that cannot elicit), except what
  /// only a person may confirm, which then fails as unanswered.
  public static func prompter(_ base: any Prompter, yes: Bool, auto: Bool, somebodyAnswers: Bool) -> any Prompter {
    if yes { return ConfirmingPrompter(base: base, explicit: true) }
    if auto, !somebodyAnswers { return ConfirmingPrompter(base: base, explicit: false) }
    return base
  }
}
