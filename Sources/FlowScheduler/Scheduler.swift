import FlowCron
import FlowLibrary
import FlowSystem
import FoundationEssentials
import Glibc

/// The scheduler `flow schedule` runs: it keeps every scheduled workflow's next fire, sleeps until the
/// earliest on one timer, and starts each due workflow as a `flow run` child process.
///
/// Its guarantees (Documentation/Scheduling.md, "The scheduler"):
///
/// - **No polling.** Between fires it sleeps in ``SchedulerClock/wait(until:)`` with the earliest fire
///   as the deadline; it wakes only for a fire, a change of the workflows, a signal, a run ending, or
///   the wall clock being set.
/// - **Never two runs of one workflow at once.** A fire that finds the workflow's previous run still
///   going — its own child, or anyone's run holding the workflow's lock — is skipped, and the skip
///   recorded in run history.
/// - **One catch-up.** When it starts, a workflow whose fire came while it was not running runs once,
///   however many fires it missed. A fire the timer reports late (the machine slept, the clock jumped
///   forward) runs once too, as a catch-up.
/// - **Nothing runs twice when the clock goes back** by up to ``backwardTolerance`` (cronie's three
///   hours); a clock set further back starts the schedule again from the new time.
/// - **A clean stop.** SIGTERM or SIGINT stops scheduling, goes on to the runs (which cancel their step
///   and record themselves cancelled), and returns once they have ended; runs still going after the
///   grace period are killed.
///
/// Single-threaded: ``run()`` handles one event at a time; its effects post events from their threads.
public final class Scheduler {
  public struct Options: Sendable {
    /// The `flow` binary the runs start.
    public var executable: String
    /// The runs' environment (each also gets `FLOW_RUN_ID`).
    public var environment: [String: String]
    /// How long runs have to end after a stop signal before they are killed.
    public var gracePeriod: TimeInterval = 3
    /// How long after a change in a watched folder the workflows are read, so that a burst of changes
    /// (an editor's save, a copy of many files) is read once.
    public var quietPeriod: TimeInterval = 0.25
    /// A fire the timer reports later than this (the machine slept, the clock jumped) is a catch-up.
    public var lateness: TimeInterval = 60
    /// The most runs a workflow's triggers start in a minute; firings past it wait in the queued run.
    /// Five a second, sustained: files saved one at a time never meet it, a workflow that keeps
    /// starting itself (it writes into the folder it watches) does.
    public var runsPerMinute = 300
    /// The most files a queued run carries; firings past it are dropped, and recorded.
    public var queuedFiles = 10_000
    /// The most files one triggered run is given on its command line; the rest wait for the next.
    public var filesPerRun = 1_000
    /// How long a warm run waits for the next firing of its workflow before it is let go (0: none).
    /// Five minutes: a burst of files a few seconds apart finds it, an idle automation costs no
    /// process.
    public var warmFor: TimeInterval = 300
    /// How many firings one warm run runs before its successor takes over: a bound on what one process
    /// may keep from run to run. A warm run's anonymous memory went from 0.68 to 1.56 MiB over its first
    /// 60 one-step runs and stayed there to the 100th (malloc's arenas, not a leak run after run).
    public var runsPerWarmRun = 1_000

    public init(executable: String, environment: [String: String]) {
      self.executable = executable
      self.environment = environment
    }
  }

  public struct Effects: Sendable {
    public var clock: any SchedulerClock
    public var launcher: any RunLauncher
    public var watcher: any LibraryWatcher
    public var signals: any SignalSource
    public var workflows: any WorkflowSource
    public var record: any FireRecordStore
    public var ledger: any RunLedger
    /// The folders of `file` triggers.
    public var files: any FileTriggerSource
    /// The services on the buses: drives, the network, power, the session, apps, hotkeys.
    public var machine: any MachineEventSource
    /// Where `flow schedule status` reads what is armed.
    public var status: any StatusStore
    /// A new run id (a UUID; the tests count).
    public var newRunID: @Sendable () -> String

    public init(
      clock: any SchedulerClock, launcher: any RunLauncher, watcher: any LibraryWatcher, signals: any SignalSource,
      workflows: any WorkflowSource, record: any FireRecordStore, ledger: any RunLedger,
      files: any FileTriggerSource, machine: any MachineEventSource, status: any StatusStore,
      newRunID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
      self.files = files
      self.machine = machine
      self.status = status
      self.clock = clock
      self.launcher = launcher
      self.watcher = watcher
      self.signals = signals
      self.workflows = workflows
      self.record = record
      self.ledger = ledger
      self.newRunID = newRunID
    }
  }

  /// How far back the clock may be set before the fires already handled stop counting: cronie's rule,
  /// which treats a larger jump back as a clock that was wrong before.
  public static let backwardTolerance: TimeInterval = 3 * 3600

  let options: Options
  let effects: Effects
  let report: (SchedulerActivity) -> Void

  /// The scheduled workflows by path.
  var entries: [String: Entry] = [:]
  /// The workflows whose triggers are armed, by path (Scheduler+Automations.swift).
  var automations: [String: ArmedAutomation] = [:]
  /// File watch id → the workflow and trigger it stands for.
  var watchOwners: [Int: (path: String, trigger: Int)] = [:]
  /// The runs triggers started, by id.
  var triggeredRuns: [String: TriggeredRun] = [:]
  /// Workflows with triggers left unarmed, and what was last said of each.
  var unarmed: [(path: String, name: String, reason: String)] = []
  var unarmedReported: [String: String] = [:]
  /// Folders of file triggers that cannot be watched, with what was said.
  var watchProblems: [String: String] = [:]
  /// How each service on the buses stands, as last said.
  var sourceStates: [MachineSource: MachineSourceReport] = [:]
  /// Battery thresholds: for "PATH#INDEX", whether the battery was past it at the last reading (a
  /// threshold fires when it is crossed, once, and again only after the battery came back).
  var pastThreshold: [String: Bool] = [:]
  /// The before-sleep runs going, and when sleep is let go at the latest.
  var sleepRuns: Set<String> = []
  var sleepDeadline: Date?
  /// Their paths, sorted: the order in which fires due together start.
  private var order: [String] = []
  /// The runs going, by id.
  private var runs: [String: ScheduledRun] = [:]
  /// Workflow path → when its last fire was handled: the fire record.
  private var handled: [String: Date] = [:]
  private var recordBroken = false
  private var reload: (due: Date, reason: ReloadReason)?
  private var stopping: Stopping?

  struct Entry {
    var workflow: ScheduledWorkflow
    var next: Schedule.Fire?
    /// The id of its run going, if one is.
    var run: String?
  }

  private struct Stopping {
    /// When the runs still going are killed; nil once they have been.
    var killAt: Date?
  }

  public init(options: Options, effects: Effects, report: @escaping (SchedulerActivity) -> Void) {
    self.options = options
    self.effects = effects
    self.report = report
  }

  /// Schedules until a stop signal, and returns when the last run has ended.
  public func run() {
    let clock = effects.clock
    effects.signals.start { signal in clock.post(signal == SIGHUP ? .reload : .stop(signal: signal)) }
    handled = effects.record.load()
    load(initial: true)
    while stopping == nil || !runs.isEmpty || !triggeredRuns.isEmpty {
      for event in clock.wait(until: deadline()) { handle(event) }
      let now = clock.now
      if stopping == nil, let reload, reload.due <= now { load(initial: false) }
      if let killAt = stopping?.killAt, killAt <= now { killRemaining() }
      if stopping == nil {
        fireDue(now)
        settleDue(now)
        startQueued(now)
        coolDown(now)
        if let due = sleepDeadline, due <= now { letSleep() }
      }
    }
    report(.stopped)
  }

  /// The one deadline the timer is armed with: the earliest fire, or a pending read of the workflows,
  /// or the end of the grace period.
  private func deadline() -> Date? {
    if let stopping { return stopping.killAt }
    var earliest = reload?.due
    if let due = automationsDeadline(), earliest.map({ due < $0 }) ?? true { earliest = due }
    if let due = sleepDeadline, earliest.map({ due < $0 }) ?? true { earliest = due }
    for entry in entries.values {
      guard let next = entry.next?.date else { continue }
      if earliest.map({ next < $0 }) ?? true { earliest = next }
    }
    return earliest
  }

  private func handle(_ event: SchedulerEvent) {
    let now = effects.clock.now
    switch event {
    case .runEnded(let id, let termination):
      if !triggeredRunEnded(id, termination, now: now) { ended(id, termination, now: now) }
    case .filesArrived(let events) where stopping == nil: filesArrived(events, now: now)
    case .watchProblem(let problem):
      watchProblems[problem.folder] = problem.description
      report(.watchProblem(problem))
      saveStatus()
    case .filesArrived: break
    case .machine(let event) where stopping == nil: machineEvent(event, now: now)
    case .machine: break
    case .source(let state):
      sourceStates[state.source] = state
      report(.source(state))
      saveStatus()
    case .stop(let signal): stop(signal, now: now)
    case .reload where stopping == nil: reload = (now, .signal)
    case .filesChanged where stopping == nil && reload == nil: reload = (now + options.quietPeriod, .filesChanged)
    case .clockChanged where stopping == nil: clockChanged(now: now)
    case .reload, .filesChanged, .clockChanged: break
    }
  }

  // MARK: - Reading the workflows

  /// Reads the workflows and reschedules what changed. At start (`initial`), a workflow whose fire came
  /// since its last one was handled runs once now, as a catch-up; later reads never catch up.
  private func load(initial: Bool) {
    let reason = reload?.reason
    reload = nil
    let loaded = effects.workflows.load()
    let now = effects.clock.now
    for problem in loaded.problems { report(.problems(problem)) }
    if initial {
      // Records of files that are gone go too: a file that comes back is new.
      handled = handled.filter { loaded.known.contains($0.key) }
    }
    var next: [String: Entry] = [:]
    var changed: [ScheduledWorkflow] = []
    var catchUps: [(path: String, first: Schedule.Fire, count: Int)] = []
    for workflow in loaded.workflows {
      let path = workflow.path
      if let old = entries[path], old.workflow.schedule == workflow.schedule, old.workflow.name == workflow.name {
        next[path] = old
        next[path]?.workflow = workflow
        continue
      }
      var entry = Entry(workflow: workflow, run: entries[path]?.run)
      if initial, let last = handled[path], let missed = workflow.schedule.fires(after: last, through: now) {
        catchUps.append((path, missed.first, missed.count))
      } else if entries[path] == nil {
        // First seen, or seen again after being left out: fires from now on.
        handled[path] = resumePoint(path, now: now)
      }
      entry.next = workflow.schedule.nextFire(after: resumePoint(path, now: now))
      next[path] = entry
      changed.append(workflow)
    }
    let gone = entries.filter { next[$0.key] == nil }.sorted { $0.key < $1.key }
    for (path, _) in gone where !initial { handled[path] = nil }
    entries = next
    order = entries.keys.sorted()
    // Watched again on every read: a folder deleted and made again needs a new watch. Watched before
    // "watching" is said, so that a file written as soon as the line appears is not missed.
    let clock = effects.clock
    effects.watcher.watch(loaded.folders) { clock.post(.filesChanged) }
    report(.loaded(count: entries.count, folders: loaded.folders, reason: initial ? nil : reason))
    arm(loaded, now: now)
    if initial { fireLogin(now: now) }
    for (_, entry) in gone { report(.unscheduled(entry.workflow)) }
    for workflow in changed { report(.scheduled(workflow, next: entries[workflow.path]?.next)) }
    for catchUp in catchUps {
      start(catchUp.path, fire: catchUp.first, trigger: .catchUp, fires: catchUp.count, now: now)
    }
    saveRecord()
  }

  /// Where a workflow's schedule goes on from: now, or its last fire handled when the clock has been
  /// set back a little since (so that the fire does not run again).
  private func resumePoint(_ path: String, now: Date) -> Date {
    guard let last = handled[path], last > now, last.timeIntervalSince(now) <= Self.backwardTolerance else {
      return now
    }
    return last
  }

  // MARK: - Firing

  /// Starts every workflow whose fire is due: in path order, when several are.
  private func fireDue(_ now: Date) {
    var fired = false
    for path in order {
      guard let entry = entries[path], let fire = entry.next, fire.date <= now else { continue }
      // A fire the timer reports late stands for every fire since: one catch-up run for all of them.
      let late = now.timeIntervalSince(fire.date) > options.lateness
      let count = late ? entry.workflow.schedule.fires(after: fire.date - 1, through: now)?.count ?? 1 : 1
      start(path, fire: fire, trigger: late ? .catchUp : .scheduled, fires: count, now: now)
      entries[path]?.next = entry.workflow.schedule.nextFire(after: now)
      fired = true
    }
    if fired { saveRecord() }
  }

  /// Starts a run of the workflow at `path` for `fire`, or skips the fire when the workflow is running.
  private func start(_ path: String, fire: Schedule.Fire, trigger: FireTrigger, fires: Int, now: Date) {
    guard let entry = entries[path] else { return }
    let workflow = entry.workflow
    handled[path] = now
    let own =
      entry.run.flatMap { runs[$0] }.map { RunHolder(runID: $0.id, pid: $0.pid, started: $0.started) }
      ?? automations[path]?.run.flatMap { triggeredRuns[$0] }.map {
        RunHolder(runID: $0.id, pid: $0.pid, started: $0.started)
      }
    if let holder = own ?? effects.ledger.holder(of: path) {
      effects.ledger.recordSkipped(workflow, trigger: trigger, holder: holder)
      report(.skipped(workflow, fire: fire, trigger: trigger, holder: holder))
      return
    }
    let id = effects.newRunID()
    var environment = options.environment
    environment["FLOW_RUN_ID"] = id
    let request = LaunchRequest(
      executable: options.executable, arguments: ["run", "--no-input", "--trigger", trigger.rawValue, path],
      environment: environment)
    let clock = effects.clock
    do {
      let pid = try effects.launcher.launch(request) { clock.post(.runEnded(id: id, $0)) }
      let run = ScheduledRun(
        id: id, workflow: workflow, trigger: trigger, fire: fire, fires: fires, pid: pid, started: now)
      runs[id] = run
      entries[path]?.run = id
      report(.runStarted(run))
    } catch {
      report(.launchFailed(workflow, fire: fire, message: error.description))
    }
  }

  private func ended(_ id: String, _ termination: Termination, now: Date) {
    guard let run = runs.removeValue(forKey: id) else { return }
    if entries[run.workflow.path]?.run == id { entries[run.workflow.path]?.run = nil }
    report(.runEnded(run, termination, ended: now))
  }

  private func saveRecord() {
    do {
      try effects.record.save(handled)
      recordBroken = false
    } catch {
      if !recordBroken { report(.recordFailed(message: error.description)) }
      recordBroken = true
    }
  }

  // MARK: - The clock

  /// The wall clock was set. Set forward (or back from a suspend), fires now due run once each as a
  /// catch-up at once, as for a timer that fired late; set back by up to ``backwardTolerance``,
  /// nothing changes, so no fire runs twice; set back further, every schedule starts again from now.
  private func clockChanged(now: Date) {
    report(.clockChanged(now: now))
    var changed = false
    for (path, entry) in entries {
      guard let last = handled[path], last.timeIntervalSince(now) > Self.backwardTolerance else { continue }
      handled[path] = now
      entries[path]?.next = entry.workflow.schedule.nextFire(after: now)
      changed = true
    }
    if changed { saveRecord() }
  }

  // MARK: - Stopping

  /// The first stop signal goes on to every run; a second one kills them at once.
  private func stop(_ signal: Int32, now: Date) {
    guard stopping == nil else {
      killRemaining()
      return
    }
    stopping = Stopping(killAt: now + options.gracePeriod)
    reload = nil
    dropQueued()
    coolDown(now, all: true)
    report(.stopping(signal: signal, runs: runs.count + triggeredRuns.count))
    for run in runs.values.sorted(by: { $0.started < $1.started }) { effects.launcher.signal(run.pid, signal) }
    for run in triggeredRuns.values.sorted(by: { $0.started < $1.started }) {
      effects.launcher.signal(run.pid, signal)
    }
  }

  private func killRemaining() {
    guard stopping?.killAt != nil else { return }
    stopping?.killAt = nil
    for run in runs.values.sorted(by: { $0.started < $1.started }) {
      effects.launcher.signal(run.pid, SIGKILL)
      report(.killed(run))
    }
    for run in triggeredRuns.values.sorted(by: { $0.started < $1.started }) {
      effects.launcher.signal(run.pid, SIGKILL)
    }
  }
}
