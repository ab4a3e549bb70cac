import FlowCron
import FlowDiagnostics
import FlowHistory
import FlowLibrary
import FlowSession
import FoundationEssentials

/// The workflow locks and run history, for the scheduler: the same lock `flow run` takes, and a skipped
/// fire recorded as `flow run` records the run it refuses.
public struct SchedulerLedger: RunLedger {
  public let context: SessionContext

  public func holder(of path: String) -> RunHolder? {
    WorkflowLock.holder(of: path, in: context.paths.locks).map(RunHolder.init)
  }

  public func recordSkipped(_ workflow: ScheduledWorkflow, trigger: FireTrigger, holder: RunHolder?) {
    do {
      let session = try RunSession(
        context, trigger: RunTrigger(rawValue: trigger.rawValue) ?? .scheduled,
        runID: UUID().uuidString.lowercased(), workflow: workflow.path)
      session.recordSkipped(workflow.name, holder: holder)
    } catch {
      // config.yml does not read: the runs themselves will say so, and fail, each time.
      context.report(Diagnostics([error]))
    }
  }

  public func recordFiring(_ automation: Automation, event: TriggerEvent, reason: String) {
    do {
      let session = try RunSession(
        context, trigger: event.runTrigger, triggerDetail: event.summary, runID: UUID().uuidString.lowercased(),
        workflow: automation.path)
      session.recordNotRun(
        automation.name,
        Diagnostic(
          .warning, .triggerNotRun, "'\(automation.name)' did not run for this firing: \(reason)", file: automation.path
        ))
    } catch {
      context.report(Diagnostics([error]))
    }
  }
}

extension DiagnosticCode {
  /// A trigger fired and its workflow did not start a run for it: the firing joined the queued run, or
  /// the storm bound dropped it (run history, `flow runs show`).
  public static let triggerNotRun: Self = "trigger-not-run"
}
