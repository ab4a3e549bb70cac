import FlowDiagnostics
import FlowIntents

/// Why a run ended early, as the diagnostic to show and the class of outcome (SPEC §6), which the
/// command line turns into an exit status.
public struct RunError: Error, Sendable {
  public enum Kind: Sendable, Hashable {
    /// A step failed.
    case stepFailed
    /// The person declined a confirmation or pressed Ctrl-C.
    case cancelled
    /// A value, choice or confirmation was needed and nobody could answer.
    case needsInput
    /// The backend could not be reached or refused the credentials.
    case backendUnavailable
    /// The workflow (or one it runs) is invalid; nothing of it ran.
    case invalid
  }

  public var kind: Kind
  public var diagnostics: Diagnostics
  /// The innermost step it happened in, as run history places it (a nested workflow's steps under the
  /// `run-workflow` step that ran them: `3.1`); nil when it happened outside any step. What
  /// `${run.error.step}` names.
  public var step: StepInfo?
  /// When a command the step ran failed (`run-shell`): its exit status (nil when it did not exit, as
  /// after a timeout) and the last lines of its standard error, for `${run.error.status}` and
  /// `${run.error.stderr}`.
  public var exitStatus: Int?
  public var standardError: String?

  public init(_ kind: Kind, _ diagnostics: Diagnostics) {
    self.kind = kind
    self.diagnostics = diagnostics
  }

  public init(_ kind: Kind, _ diagnostic: Diagnostic) {
    self.init(kind, Diagnostics([diagnostic]))
  }

  /// The class of an intent's error.
  public static func classify(_ error: any Error) -> Kind {
    switch error {
    case let error as AppIntentError:
      switch error.kind {
      case .needsValue, .needsChoice, .confirmationRequired: .needsInput
      case .userCancelled: .cancelled
      case .insufficientAccount: .backendUnavailable
      default: .stepFailed
      }
    case is CancellationError: .cancelled
    default: .stepFailed
    }
  }
}

extension DiagnosticCode {
  /// A step failed while the workflow ran.
  public static let stepFailed: Self = "step-failed"
  /// The run stopped to ask for something nobody could answer.
  public static let inputNeeded: Self = "input-needed"
  /// The person cancelled the run.
  public static let cancelled: Self = "cancelled"
  /// A step of `on-failure:` failed too, after the run had failed (a warning beside the run's error).
  public static let onFailureFailed: Self = "on-failure-failed"
  /// A step shows a notification, and the session it is checked in has no bus to show it on.
  public static let noSessionBus: Self = "no-session-bus"
  /// A step went on past something it could not do, and did the rest (a folder a listing could not read).
  public static let partlyDone: Self = "partly-done"
}

extension Diagnostics {
  /// The check's diagnostics as a run takes them: a step naming a server that is not configured here is
  /// a warning for `flow validate`, `flow show` and the import card (the file may be meant for a machine
  /// that has the server), and an error that stops a run before step 1, which could not call the tool.
  public var stoppingRun: Diagnostics {
    guard all.contains(where: { $0.code == .unknownServer && $0.severity == .warning }) else { return self }
    return Diagnostics(
      all.map { diagnostic in
        guard diagnostic.code == .unknownServer else { return diagnostic }
        var error = diagnostic
        error.severity = .error
        return error
      })
  }
}
