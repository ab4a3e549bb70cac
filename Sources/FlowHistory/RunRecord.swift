import FlowLibrary
import Foundation

/// What run history knows when a run starts: written before its first step.
package struct RunStart: Sendable {
  /// The run's id, the one `${run.id}` gives.
  package var id: String
  /// The workflow's `name:` (or its file name), or the action of a `flow do`.
  package var workflow: String
  /// The workflow file, absolute; nil for `flow do`.
  package var path: String?
  /// SHA-256 of the file's bytes, as `sha256sum` prints it.
  package var contentHash: String?
  package var trigger: RunTrigger
  package var started: Date
  package var process: ProcessIdentity

  package init(
    id: String, workflow: String, path: String?, contentHash: String?, trigger: RunTrigger, started: Date,
    process: ProcessIdentity
  ) {
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
package struct RunEnd: Sendable {
  package var ended: Date
  package var status: RunStatus
  package var exitCode: Int32
  /// The problems that ended it: the failing step's error, or every problem of an invalid file.
  package var diagnostics: [RecordedDiagnostic]
  /// The step it failed in, when one did.
  package var failedStep: (position: String, action: String)?

  package init(
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
package struct RunRecord: Sendable {
  /// The row, for reading its trace.
  let key: Int64
  package var id: String
  package var workflow: String
  package var path: String?
  package var contentHash: String?
  /// The trigger's name; kept as text so that a newer flow's triggers still read.
  package var trigger: String
  package var started: Date
  /// Nil while running, and for an interrupted run (nobody saw it end).
  package var ended: Date?
  package var status: RunStatus
  package var exitCode: Int32?
  package var failedStep: FailedStep?
  package var diagnostics: [RecordedDiagnostic]
  /// Filled only by ``RunHistory/run(matching:)``.
  package var steps: [StepTrace]

  /// Where a failed run stopped.
  package struct FailedStep: Sendable, Hashable {
    package var position: String?
    package var action: String?
    package var message: String?
    /// `path:line:column`.
    package var location: String?
  }

  /// How long it took; nil until it ended.
  package var duration: TimeInterval? { ended.map { $0.timeIntervalSince(started) } }
}
