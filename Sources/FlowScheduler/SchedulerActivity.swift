import FlowCron
import FlowLibrary
import FlowSession
import FlowSystem
import FoundationEssentials

/// What the scheduler did, as it does it: the command line prints one line for each (or a JSON line).
public enum SchedulerActivity: Sendable {
  /// The workflows were read, at start or again: how many are scheduled, and the folders watched.
  case loaded(count: Int, folders: [String], reason: ReloadReason?)
  /// A workflow is scheduled (at start, or new or changed since), and when it fires next.
  case scheduled(ScheduledWorkflow, next: Schedule.Fire?)
  /// A workflow is no longer scheduled: its file is gone, no longer checks, or has no schedule.
  case unscheduled(ScheduledWorkflow)
  /// A file left out, or scheduled with warnings.
  case problems(WorkflowProblem)
  /// The wall clock was set; fires were looked at again.
  case clockChanged(now: Date)
  case runStarted(ScheduledRun)
  case runEnded(ScheduledRun, Termination, ended: Date)
  /// A fire was not run: the workflow was still running (`holder`), and the skip is in run history.
  case skipped(ScheduledWorkflow, fire: Schedule.Fire, trigger: FireTrigger, holder: RunHolder?)
  /// A run's process could not be started.
  case launchFailed(ScheduledWorkflow, fire: Schedule.Fire, message: String)
  /// The fire record could not be written (said once): fires missed during the next downtime may not
  /// be caught up.
  case recordFailed(message: String)
  /// A stop signal came: scheduling stopped, the signal went to the runs going.
  case stopping(signal: Int32, runs: Int)
  /// A run still going when the grace period ended was killed.
  case killed(ScheduledRun)
  /// The last run has ended; the scheduler returns.
  case stopped

  // Automations (`on:`).
  /// A workflow's triggers are armed (at start, or new since).
  case armed(Automation)
  /// A workflow's triggers are no longer armed: its file is gone, no longer checks, or has none.
  case disarmed(Automation)
  /// A workflow with triggers is not armed, and why (said once, until the reason changes).
  case notArmed(name: String, path: String, reason: String)
  /// A folder of a `file` trigger cannot be watched (or is awaited).
  case watchProblem(WatchProblem)
  case triggeredRunStarted(Scheduler.TriggeredRun)
  case triggeredRunEnded(Scheduler.TriggeredRun, Termination, ended: Date)
  /// A firing waits in the queued run (`joined`: with earlier ones).
  case triggerQueued(Automation, TriggerEvent, joined: Bool)
  /// A firing was dropped by the storm bound, and recorded.
  case triggerDropped(Automation, TriggerEvent, reason: String)
  case triggerLaunchFailed(Automation, message: String)
  /// How a service on a bus stands now (armed, absent, gone, back, or why it cannot be watched).
  case source(MachineSourceReport)
}

/// Why the workflows were read again.
public enum ReloadReason: String, Sendable {
  /// A workflow file in a watched folder changed.
  case filesChanged = "files-changed"
  /// SIGHUP.
  case signal = "sighup"
}

/// A run the scheduler started.
public struct ScheduledRun: Sendable {
  /// The run's id: `${run.id}` inside it, and its id in run history.
  public var id: String
  public var workflow: ScheduledWorkflow
  public var trigger: FireTrigger
  /// The fire it runs for: for a catch-up, the first one missed.
  public var fire: Schedule.Fire
  /// How many fires it stands for: more than one when a catch-up runs once for several.
  public var fires: Int
  public var pid: Int32
  public var started: Date

  public init(
    id: String, workflow: ScheduledWorkflow, trigger: FireTrigger, fire: Schedule.Fire, fires: Int, pid: Int32,
    started: Date
  ) {
    self.id = id
    self.workflow = workflow
    self.trigger = trigger
    self.fire = fire
    self.fires = fires
    self.pid = pid
    self.started = started
  }
}
