import FlowLibrary
import FoundationEssentials

/// What run history knows when a run starts: written before its first step.
public struct RunStart: Sendable {
  /// The run's id, the one `${run.id}` gives.
  public var id: String
  /// The workflow's `name:` (or its file name), or the action of a `flow do`.
  public var workflow: String
  /// The workflow file, absolute; nil for `flow do`.
  public var path: String?
  /// SHA-256 of the file's bytes, as `sha256sum` prints it.
  public var contentHash: String?
  public var trigger: RunTrigger
  /// What the trigger brought, in a line: `created ~/Downloads/a.pdf and 2 more`, `joined HomeNet`.
  public var triggerDetail: String?
  public var started: Date
  public var process: ProcessIdentity

  public init(
    id: String, workflow: String, path: String?, contentHash: String?, trigger: RunTrigger,
    triggerDetail: String? = nil, started: Date, process: ProcessIdentity
  ) {
    self.triggerDetail = triggerDetail
    self.id = id
    self.workflow = workflow
    self.path = path
    self.contentHash = contentHash
    self.trigger = trigger
    self.started = started
    self.process = process
  }

  /// What retention counts runs by: the file, or the action of a `flow do`.
  var workflowKey: String { path ?? "do:\(workflow)" }
}

/// How a run ended.
public struct RunEnd: Sendable {
  public var ended: Date
  public var status: RunStatus
  public var exitCode: Int32
  /// The problems that ended it: the failing step's error, or every problem of an invalid file.
  public var diagnostics: [RecordedDiagnostic]
  /// The step it failed in, when one did.
  public var failedStep: (position: String, action: String)?

  public init(
    ended: Date, status: RunStatus, exitCode: Int32, diagnostics: [RecordedDiagnostic] = [],
    failedStep: (position: String, action: String)? = nil
  ) {
    self.ended = ended
    self.status = status
    self.exitCode = exitCode
    self.diagnostics = diagnostics
    self.failedStep = failedStep
  }
}

/// A run as `flow runs` reads it back.
public struct RunRecord: Sendable {
  /// The row, for reading its trace.
  let key: Int64
  public var id: String
  public var workflow: String
  public var path: String?
  public var contentHash: String?
  /// The trigger's name; kept as text so that a newer flow's triggers still read.
  public var trigger: String
  public var started: Date
  /// Nil while running, and for an interrupted run (nobody saw it end).
  public var ended: Date?
  public var status: RunStatus
  public var exitCode: Int32?
  public var failedStep: FailedStep?
  public var diagnostics: [RecordedDiagnostic]
  /// What the trigger brought (``RunStart/triggerDetail``).
  public var triggerDetail: String?
  /// Filled only by ``RunHistory/run(matching:)``.
  public var steps: [StepTrace]

  /// Where a failed run stopped.
  public struct FailedStep: Sendable, Hashable {
    public var position: String?
    public var action: String?
    public var message: String?
    /// `path:line:column`.
    public var location: String?
  }

  /// How long it took; nil until it ended.
  public var duration: TimeInterval? { ended.map { $0.timeIntervalSince(started) } }
}
