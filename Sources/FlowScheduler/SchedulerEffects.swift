import FlowCron
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSystem
import FoundationEssentials

// The scheduler's effects, each behind a small protocol: the Linux implementations are in `System/`,
// and the tests drive the scheduler on a simulated machine that implements them all.

/// The wall clock, and the one timer the scheduler sleeps on.
public protocol SchedulerClock: Sendable {
  var now: Date { get }
  /// Sleeps until `deadline` passes (with none, until an event), or until an event is posted, and
  /// returns the events posted meanwhile, oldest first: none when it was the deadline.
  func wait(until deadline: Date?) -> [SchedulerEvent]
  /// Wakes the scheduler with `event`. Called from any thread.
  func post(_ event: SchedulerEvent)
}

/// A process to start: the scheduler's runs are `flow run` processes.
public struct LaunchRequest: Sendable, Hashable {
  public var executable: String
  public var arguments: [String]
  public var environment: [String: String]
  /// A warm run's (`flow run --await-trigger`): its standard input is a pipe it is handed its firings on
  /// (``RunLauncher/handOver(_:_:finished:)``), instead of `/dev/null`, and descriptor 3 one it reports
  /// each run's end on.
  public var awaitsHandOver = false

  public init(executable: String, arguments: [String], environment: [String: String]) {
    self.executable = executable
    self.arguments = arguments
    self.environment = environment
  }
}

/// A run's process could not be started.
public struct LaunchFailure: Error, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }
}

/// Starts runs as child processes, so that a run that crashes cannot take the scheduler with it.
public protocol RunLauncher: Sendable {
  /// Starts `request` and returns its process id; `ended` is called once, from any thread, when the
  /// process has ended.
  func launch(_ request: LaunchRequest, ended: @escaping @Sendable (Termination) -> Void) throws(LaunchFailure)
    -> Int32
  /// Sends `signal` to the run's process.
  func signal(_ pid: Int32, _ signal: Int32)
  /// Hands `bytes`, a firing (``TriggerHandOver``), to the warm run `pid` (launched with
  /// ``LaunchRequest/awaitsHandOver``); `finished` is called, from any thread, with the exit status of
  /// the run it starts once that has ended. False when the warm run is gone.
  func handOver(_ pid: Int32, _ bytes: [UInt8], finished: @escaping @Sendable (Int32) -> Void) -> Bool
  /// Closes the warm run's input: it ends once the run it has going, if any, has.
  func retire(_ pid: Int32)
}

/// Tells when workflow files change.
public protocol LibraryWatcher: Sendable {
  /// Watches `folders` from now on, instead of those watched so far, and calls `changed` (from any
  /// thread) when a workflow file in one of them is written, moved or deleted.
  func watch(_ folders: [String], changed: @escaping @Sendable () -> Void)
}

/// Watches the folders of `file` triggers (``FileTriggerWatcher`` on Linux). What fires reaches the
/// scheduler as ``SchedulerEvent/filesArrived(_:)``, what cannot be watched as
/// ``SchedulerEvent/watchProblem(_:)``.
public protocol FileTriggerSource: Sendable {
  /// Watches `watches` from now on, instead of those armed before.
  func arm(_ watches: [FileWatch])
}

/// The services on the buses that drive, Wi-Fi, power, session, app and hotkey triggers listen to
/// (``MachineEventSources`` on Linux). What happens reaches the scheduler as
/// ``SchedulerEvent/machine(_:)``, how each service stands as ``SchedulerEvent/source(_:)``.
public protocol MachineEventSource: Sendable {
  /// Follows `sources` from now on (and binds `shortcuts` with the portal), instead of those before;
  /// the same again connects what was missing or lost.
  func arm(_ sources: Set<MachineSource>, shortcuts: [HotkeyShortcut])
  /// Holds sleep back so that before-sleep runs can finish (a logind delay inhibitor), from now on.
  func holdSleep()
  /// Lets the machine sleep.
  func releaseSleep()
  /// How long logind lets sleep be held back; nil until logind is armed.
  var sleepDelayLimit: Duration? { get }
}

/// Where the scheduler says what it has armed, for `flow schedule status`.
public protocol StatusStore: Sendable {
  func save(_ status: SchedulerStatus)
}

/// The signals a service is stopped and reloaded with.
public protocol SignalSource: Sendable {
  /// Calls `received` (from any thread) with every SIGHUP, SIGTERM and SIGINT from now on, instead of
  /// their default actions.
  func start(_ received: @escaping @Sendable (Int32) -> Void)
}

/// A workflow file left out of the schedule, or scheduled with warnings.
public struct WorkflowProblem: Sendable {
  public var path: String
  public var diagnostics: Diagnostics
  /// Whether the workflow is left out (it does not check); false for warnings alone.
  public var leftOut: Bool

  public init(path: String, diagnostics: Diagnostics, leftOut: Bool) {
    self.path = path
    self.diagnostics = diagnostics
    self.leftOut = leftOut
  }
}

/// The workflows to schedule, as one read of them found them.
public struct LoadedWorkflows: Sendable {
  /// Every workflow that checks clean and has a schedule, each once (by its absolute path).
  public var workflows: [ScheduledWorkflow]
  /// Every workflow with triggers that may be armed (``Automation``), each once.
  public var automations: [Automation] = []
  /// Workflows with triggers that are not armed, and why: it would need an answer nobody can give, or
  /// it was imported and the person has not said its triggers may start it.
  public var unarmed: [(path: String, name: String, reason: String)] = []
  /// Files that do not check, or check with warnings: only those whose problems are new since the last
  /// read, so that an unchanged file is not reported on every change of the library.
  public var problems: [WorkflowProblem]
  /// The folders whose changes mean reading the workflows again.
  public var folders: [String]
  /// Every path the read looked at, scheduled or not: the fire record keeps these.
  public var known: Set<String>

  public init(workflows: [ScheduledWorkflow], problems: [WorkflowProblem], folders: [String], known: Set<String>) {
    self.workflows = workflows
    self.problems = problems
    self.folders = folders
    self.known = known
  }
}

/// Reads the workflows the scheduler runs, checked in full.
public protocol WorkflowSource: Sendable {
  func load() -> LoadedWorkflows
}

/// The fire record could not be written.
public struct RecordFailure: Error, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }
}

/// Where the scheduler keeps, across restarts, when it last handled each workflow's fire: what tells a
/// fire missed during downtime.
public protocol FireRecordStore: Sendable {
  /// Workflow path → when its last fire was handled (or, before its first, when it was first seen).
  func load() -> [String: Date]
  func save(_ record: [String: Date]) throws(RecordFailure)
}

/// The per-workflow locks and run history, as the scheduler uses them.
public protocol RunLedger: Sendable {
  /// The run holding the lock of the workflow at `path`, if one is going: the scheduler's own child, a
  /// cron line's, a person's.
  func holder(of path: String) -> RunHolder?
  /// Records in run history a fire skipped because `holder` was still going.
  func recordSkipped(_ workflow: ScheduledWorkflow, trigger: FireTrigger, holder: RunHolder?)
  /// Records in run history a firing of a trigger that did not start a run of its own: it joined the
  /// queued run, or was dropped by the storm bound; `reason` says which.
  func recordFiring(_ automation: Automation, event: TriggerEvent, reason: String)
}
