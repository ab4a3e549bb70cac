import FlowDiagnostics
import FlowHistory
import FlowLibrary
import FlowSession
import FoundationEssentials

/// A recorded run as `flow runs --json` (a list of these) and `flow runs show --json` print it; the
/// shape is documented in `Documentation/History.md`.
struct RunJSON: Encodable {
  var id: String
  var workflow: String
  var path: String?
  var sha256: String?
  var trigger: String
  /// What the trigger brought, in a line; absent for a run nobody's trigger started.
  var triggerDetail: String?
  /// ISO 8601 in UTC, to the millisecond.
  var started: String
  var ended: String?
  var durationSeconds: Double?
  var status: String
  var exitCode: Int32?
  var failedStep: FailedStep?
  /// `flow runs show` only.
  var steps: [Step]?
  var diagnostics: [Diagnostic]?

  struct FailedStep: Encodable {
    var position: String?
    var action: String?
    var message: String?
    /// `path:line:column`.
    var location: String?
  }

  struct Step: Encodable {
    var position: String
    var action: String
    var status: String
    var ran: Int
    var skipped: Int
    var failed: Int
    var durationSeconds: Double
    var summary: String?
    var error: String?
  }

  init(_ run: RunRecord, detailed: Bool = false) {
    id = run.id
    workflow = run.workflow
    path = run.path
    sha256 = run.contentHash
    trigger = run.trigger
    triggerDetail = run.triggerDetail
    started = HistoryText.timestamp(run.started)
    ended = run.ended.map(HistoryText.timestamp)
    durationSeconds = run.duration
    status = run.status.rawValue
    exitCode = run.exitCode
    failedStep = run.failedStep.map {
      FailedStep(position: $0.position, action: $0.action, message: $0.message, location: $0.location)
    }
    guard detailed else { return }
    steps = run.steps.map {
      Step(
        position: $0.position, action: $0.action, status: $0.status.rawValue, ran: $0.ran, skipped: $0.skipped,
        failed: $0.failed, durationSeconds: Double($0.microseconds) / 1_000_000, summary: $0.summary, error: $0.error)
    }
    diagnostics = run.diagnostics.map { $0.diagnostic() }
  }

}
