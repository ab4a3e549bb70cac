/// One step of a recorded run's trace.
///
/// A step inside a loop is one entry for all its passes, with how often it ran, was skipped and failed,
/// and the time of all passes together: a 10,000-pass loop adds one line to history, not 10,000, and
/// `flow runs show` reads like the workflow file. Steps of a nested workflow sit under the
/// `run-workflow` step that ran them (`2.1` is the first step of the workflow step 2 ran).
public struct StepTrace: Sendable, Hashable, Codable {
  public enum Status: String, Sendable, Hashable, Codable {
    case ran
    case skipped
    case failed
    /// Changes something, so a dry run only showed it.
    case dryRun = "dry-run"
    /// Started and not finished when history was last written: the step in progress, or, when the
    /// run was interrupted, the step its process died in.
    case running
    /// The step the run was cancelled in.
    case cancelled
    /// The step that needed an answer nobody could give.
    case needsInput = "needs-input"
  }

  /// `3`, or `3.2` for the second step inside step 3.
  public var position: String
  /// The action id or block keyword.
  public var action: String
  /// How its last pass ended.
  public var status: Status
  public var ran: Int
  public var skipped: Int
  public var failed: Int
  /// All passes together, in microseconds.
  public var microseconds: Int64
  /// The last pass's output in a few words (`'Swift.org'`, `a list of 3 items`), secrets masked.
  public var summary: String?
  /// The first failure's message, secrets masked.
  public var error: String?

  public init(
    position: String, action: String, status: Status, ran: Int = 0, skipped: Int = 0, failed: Int = 0,
    microseconds: Int64 = 0, summary: String? = nil, error: String? = nil
  ) {
    self.position = position
    self.action = action
    self.status = status
    self.ran = ran
    self.skipped = skipped
    self.failed = failed
    self.microseconds = microseconds
    self.summary = summary
    self.error = error
  }
}
