import FlowDiagnostics
import FlowIntents
import FlowModel

/// What happens during a run, for progress on standard error and the `--json` report.
public enum RunEvent: Sendable {
  /// A step is about to run.
  case started(StepInfo)
  /// A step ended: ran, was skipped, failed and was continued past, or was only shown (dry run).
  case finished(StepRecord)
  /// Text an intent shows the person (`show`, and dialogs of other actions).
  case dialog(String, StepInfo)
  /// A loop began pass `pass` of `total`, for a progress bar.
  case loopProgress(StepInfo, pass: Int, total: Int)
  /// The action of a step said how far it has got (an MCP tool's progress notification).
  case progress(StepInfo, ActionProgress)
  /// A step that reported progress ended, however it ended: its progress is over.
  case progressEnded(StepInfo)
  /// The run failed with this error in the steps still started and not finished, which end with it;
  /// the workflow's `on-failure:` steps follow (`on-failure.1`…). Sent only when there are some.
  case runFailed(RunError)
}

/// Which step: its position (`3`, or `3.2` for the second step inside step 3), its label, and its id in
/// this run, which tells loop passes apart.
public struct StepInfo: Sendable, Hashable {
  /// Where the step is written: `3.2`, the same in every pass of a loop.
  public var position: String
  public var label: String
  /// The position with the pass of each loop it is in: `2#3.1` is step 1 inside step 2 in its third pass.
  /// Equal to ``position`` outside loops, and unless the run asks for pass ids
  /// (``Interpreter/Options/passIDs``, which `--json` does): only a report that lists every step needs
  /// to tell passes apart.
  public var id: String

  public init(position: String, label: String, id: String? = nil) {
    self.position = position
    self.label = label
    self.id = id ?? position
  }

  /// "step 3 'show'", for messages.
  public var description: String { "\(Step.describe(position: position)) '\(label)'" }
}

/// One step's outcome, as the `--json` report lists it.
public struct StepRecord: Sendable, Hashable, Encodable {
  public enum Status: String, Sendable, Hashable, Encodable {
    case ran
    case skipped
    /// Failed, with `on-error: continue`.
    case failed
    /// Changes something, so a dry run only showed it.
    case dryRun = "dry-run"
  }

  /// The step's id (``StepInfo/id``): its position, with the pass inside loops (`2#3.1`).
  public var step: String
  /// Where the step is written (``StepInfo/position``), the same in every pass: what run history adds up.
  public var position: String
  public var action: String
  public var status: Status
  /// The output's type name ("Bookmark", "List of Text"): as given, or else ``value``'s, worked out only
  /// when asked for (a list's walks the list, too much to pay on every step for a report that may never
  /// print it).
  public var output: String? {
    get { outputName ?? value?.typeName }
    set { outputName = newValue }
  }
  private var outputName: String?
  /// The parameter summary with resolved values, for dry runs.
  public var summary: String?
  public var error: String?
  /// For a step that failed with `on-error: continue`: the failure as a warning, at its place.
  public var warning: Diagnostic? {
    get { warningStorage.first }
    set { warningStorage = newValue.map { [$0] } ?? [] }
  }
  /// In an array, 8 bytes when empty, rather than inline: a diagnostic is large, and every step's record
  /// is copied on its way to the observers.
  private var warningStorage: [Diagnostic] = []
  /// The output itself, for run history's summary of it; not part of the `--json` report.
  public var value: FlowValue?

  public init(
    step: String, position: String? = nil, action: String, status: Status, output: String? = nil,
    summary: String? = nil, error: String? = nil, warning: Diagnostic? = nil, value: FlowValue? = nil
  ) {
    self.step = step
    self.position = position ?? step
    self.action = action
    self.status = status
    self.outputName = output
    self.summary = summary
    self.error = error
    self.warning = warning
    self.value = value
  }

  private enum CodingKeys: String, CodingKey {
    // The warning is reported with the run's diagnostics, not repeated in the step; the value and the
    // position are history's.
    case step, action, status, output, summary, error
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(step, forKey: .step)
    try container.encode(action, forKey: .action)
    try container.encode(status, forKey: .status)
    try container.encodeIfPresent(output, forKey: .output)
    try container.encodeIfPresent(summary, forKey: .summary)
    try container.encodeIfPresent(error, forKey: .error)
  }
}

/// Receives run events; the command line renders them.
public protocol RunObserver: Sendable {
  func record(_ event: RunEvent)
  /// Whether it wants a ``RunEvent/finished(_:)`` for every step that ran, as a report listing the
  /// steps does; dry-run, skipped and failed steps are always reported.
  var recordsSteps: Bool { get }
}

extension RunObserver {
  public var recordsSteps: Bool { true }
}

/// An observer that ignores everything.
public struct SilentObserver: RunObserver {
  public init() {}
  public func record(_ event: RunEvent) {}
  public var recordsSteps: Bool { false }
}
