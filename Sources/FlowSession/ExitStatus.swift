import FlowRuntime

/// Every exit status flow uses, in one place (SPEC §6; documented in `Documentation/ExitCodes.md`).
///
/// Small families in the spirit of go-task: each class of outcome a script may want to branch on has
/// its own code, and nothing else produces it.
public enum ExitStatus: Int32, Error, Sendable, CaseIterable {
  /// Everything asked for was done.
  case success = 0
  /// A step failed while the workflow ran.
  case stepFailed = 1
  /// The workflow is invalid, or the command line is wrong: nothing ran.
  case invalid = 2
  /// The person cancelled: declined a confirmation, or pressed Ctrl-C.
  case cancelled = 3
  /// Input or a confirmation was needed, and nobody could answer (no terminal, `--no-input`).
  case needsInput = 4
  /// The backend could not be reached or refused the credentials.
  case backendUnavailable = 5
  /// Nothing ran because the workflow is already running (another run holds its lock). Its own code
  /// because a cron line or a wrapper script branches on it: this is "try again later", not a failure.
  case skipped = 6

  /// What the status means, for `--help` and the docs.
  public var meaning: String {
    switch self {
    case .success: "success"
    case .stepFailed: "a step failed"
    case .invalid: "invalid workflow or usage; nothing ran"
    case .cancelled: "cancelled by the person"
    case .needsInput: "input or confirmation needed where nobody can answer"
    case .backendUnavailable: "backend unreachable or unauthorised"
    case .skipped: "skipped: the workflow is already running"
    }
  }
}

extension ExitStatus {
  /// The status of a run that ended early: where run errors become exit codes.
  public init(_ kind: RunError.Kind) {
    switch kind {
    case .stepFailed: self = .stepFailed
    case .cancelled: self = .cancelled
    case .needsInput: self = .needsInput
    case .backendUnavailable: self = .backendUnavailable
    case .invalid: self = .invalid
    }
  }
}
