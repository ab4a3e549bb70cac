import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowSession
import FlowSystem
import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// A machine on a simulated clock, implementing every effect of the scheduler: time moves only when the
/// scheduler waits, straight to its deadline or to the next thing on the agenda (a run ending, a file
/// changing, a signal, the clock being set), so a year of fires takes as long as the fires take to
/// handle, and every run is deterministic.
final class SimulatedMachine: SchedulerClock, RunLauncher, LibraryWatcher, SignalSource, WorkflowSource,
  FireRecordStore, RunLedger, FileTriggerSource, MachineEventSource, StatusStore, @unchecked Sendable
{
  private(set) var now: Date
  private var agenda: [(time: Date, id: Int, action: () -> Void)] = []
  private var nextID = 0
  private var inbox: [SchedulerEvent] = []
  private var waits = 0

  // MARK: What the machine is like

  var workflows: [ScheduledWorkflow] = []
  var automations: [Automation] = []
  var problems: [WorkflowProblem] = []
  var folders = ["/library"]
  /// The fire record on "disk".
  var record: [String: Date] = [:]
  /// Runs of others (a cron line, a person) holding workflows' locks, by path.
  var othersRunning: [String: RunHolder] = [:]
  /// How long a run of a workflow takes, by path (default: 10 seconds).
  var durations: [String: TimeInterval] = [:]
  /// How long a run takes to cancel after SIGTERM or SIGINT; nil: it ignores them.
  var cancelTime: TimeInterval? = 0.5
  var recordFails = false
  var launchFails = false

  // MARK: What happened

  private(set) var activities: [SchedulerActivity] = []
  private(set) var launches: [(time: Date, request: LaunchRequest)] = []
  /// Warm runs started, waiting for their firing (`--await-trigger`).
  private(set) var warmed: [(time: Date, request: LaunchRequest)] = []
  /// What each warm run was handed: a firing's values.
  private(set) var handOvers: [(time: Date, pid: Int32, values: [String])] = []
  /// Warm runs' hand-overs let go (`retire`), in order.
  private(set) var retirements: [(time: Date, pid: Int32)] = []
  private var waiting: [Int32: LaunchRequest] = [:]
  private var retired: Set<Int32> = []
  /// Warm runs with a run going: when it ends, and who hears of it.
  private var runningWarm: [Int32: (end: Int, finished: @Sendable (Int32) -> Void)] = [:]
  private(set) var signalsSent: [(pid: Int32, signal: Int32)] = []
  private(set) var skips: [(path: String, trigger: FireTrigger, holder: RunHolder?)] = []
  private(set) var watchedFolders: [[String]] = []
  /// Every arming of the file triggers' watches.
  private(set) var armedWatches: [[FileWatch]] = []
  /// Firings recorded as not run: the workflow's path and why.
  private(set) var firingsNotRun: [(path: String, event: TriggerEvent, reason: String)] = []
  private(set) var lastStatus: SchedulerStatus?
  /// Every arming of the bus sources.
  private(set) var armedSources: [Set<MachineSource>] = []
  private(set) var armedShortcuts: [HotkeyShortcut] = []
  /// Whether sleep is held back now, and each change of it.
  private(set) var sleepHeld: [Bool] = []
  var sleepDelayLimit: Duration? = .seconds(5)
  private var children: [Int32: (exit: Int, ended: @Sendable (Termination) -> Void)] = [:]
  private var nextPID: Int32 = 1000
  private var runCount = 0
  private var changed: (@Sendable () -> Void)?
  private var received: (@Sendable (Int32) -> Void)?

  init(now: String) throws {
    self.now = .distantPast
    self.now = try date(now)
  }

  /// A scheduler on this machine, with run ids `run-1`, `run-2`…
  func scheduler(_ configure: (inout Scheduler.Options) -> Void = { _ in }) -> Scheduler {
    var options = Scheduler.Options(executable: "/usr/bin/flow", environment: ["HOME": "/home/ada"])
    configure(&options)
    let effects = Scheduler.Effects(
      clock: self, launcher: self, watcher: self, signals: self, workflows: self, record: self, ledger: self,
      files: self, machine: self, status: self,
      newRunID: { [unowned self] in
        runCount += 1
        return "run-\(runCount)"
      })
    return Scheduler(options: options, effects: effects) { [unowned self] in activities.append($0) }
  }

  /// Runs a scheduler until `stop` (ISO 8601), when it gets SIGTERM, and until it returns.
  func run(until stop: String, _ configure: (inout Scheduler.Options) -> Void = { _ in }) throws {
    try at(stop) { [unowned self] in received?(SIGTERM) }
    scheduler(configure).run()
  }

  // MARK: The agenda

  /// Does `action` at `time` (ISO 8601).
  @discardableResult
  func at(_ time: String, _ action: @escaping () -> Void) throws -> Int {
    at(try date(time), action)
  }

  @discardableResult
  func at(_ time: Date, _ action: @escaping () -> Void) -> Int {
    nextID += 1
    let index = agenda.firstIndex { $0.time > time } ?? agenda.endIndex
    agenda.insert((time, nextID, action), at: index)
    return nextID
  }

  private func cancel(_ id: Int) {
    agenda.removeAll { $0.id == id }
  }

  /// Sends `signal` to the scheduler at `time`.
  func signal(_ signal: Int32, at time: String) throws {
    try at(time) { [unowned self] in received?(signal) }
  }

  /// Changes the workflows at `time` and tells the watcher.
  func change(at time: String, _ mutate: @escaping (SimulatedMachine) throws -> Void) throws {
    try at(time) { [unowned self] in
      do {
        try mutate(self)
      } catch {
        Issue.record(error)
      }
      changed?()
    }
  }

  /// Moves time on with nothing running, as while the machine is switched off.
  func powerOff(until time: String) throws {
    now = try date(time)
  }

  /// Sets the wall clock to `time` when the agenda reaches `when`, as `date -s` would: the clock reports
  /// it, unless `reported` is false (a resume from suspend seen only as a late timer).
  func setClock(at when: String, to time: String, reported: Bool = true) throws {
    let target = try date(time)
    try at(when) { [unowned self] in
      now = target
      if reported { post(.clockChanged) }
    }
  }

  /// Sets the wall clock to `time` now, and reports it.
  func setClock(to time: String) throws {
    now = try date(time)
    post(.clockChanged)
  }

  func date(_ text: String) throws -> Date {
    try #require(ISO8601DateFormatter().date(from: text) ?? Self.fractional.date(from: text), "not ISO 8601: \(text)")
  }

  private static var fractional: ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter
  }

  // MARK: - SchedulerClock

  func wait(until deadline: Date?) -> [SchedulerEvent] {
    waits += 1
    if waits > 2_000_000 {
      Issue.record("the scheduler does not come to rest")
      return [.stop(signal: SIGKILL)]
    }
    if inbox.isEmpty {
      if let next = agenda.first, deadline.map({ next.time <= $0 }) ?? true {
        agenda.removeFirst()
        now = max(now, next.time)
        next.action()
      } else if let deadline {
        now = max(now, deadline)
      } else {
        Issue.record("the scheduler would wait forever: nothing is on the agenda")
        return [.stop(signal: SIGKILL)]
      }
    }
    defer { inbox = [] }
    return inbox
  }

  func post(_ event: SchedulerEvent) {
    inbox.append(event)
  }

  // MARK: - RunLauncher

  func launch(_ request: LaunchRequest, ended: @escaping @Sendable (Termination) -> Void) throws(LaunchFailure)
    -> Int32
  {
    if launchFails { throw LaunchFailure("no such file") }
    nextPID += 1
    let pid = nextPID
    if request.awaitsHandOver {
      // Waits until it is handed a firing, or let go.
      warmed.append((now, request))
      waiting[pid] = request
      children[pid] = (-1, ended)
      return pid
    }
    launches.append((now, request))
    let path = request.arguments.last ?? ""
    let exit = at(now + (durations[path] ?? 10)) { [unowned self] in finish(pid, .exited(0)) }
    children[pid] = (exit, ended)
    return pid
  }

  /// A hand-over to a warm run is a launch, as the tests see it: `launches` gets the command line the
  /// run would have had started cold, and its time runs from now; at its end the warm run reports it
  /// and waits for the next.
  func handOver(_ pid: Int32, _ bytes: [UInt8], finished: @escaping @Sendable (Int32) -> Void) -> Bool {
    guard let request = waiting[pid], !retired.contains(pid), runningWarm[pid] == nil, children[pid] != nil else {
      return false
    }
    let fields = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    let values = Array(fields.dropFirst())
    handOvers.append((now, pid, values))
    var started = request
    started.awaitsHandOver = false
    started.arguments = request.arguments.filter { $0 != "--await-trigger" }
    started.arguments.insert(contentsOf: values.flatMap { ["--trigger-event", $0] }, at: started.arguments.count - 1)
    launches.append((now, started))
    let path = started.arguments.last ?? ""
    runningWarm[pid] = (at(now + (durations[path] ?? 10)) { [unowned self] in endWarmRunning(pid, 0) }, finished)
    return true
  }

  func retire(_ pid: Int32) {
    guard waiting[pid] != nil, retired.insert(pid).inserted else { return }
    retirements.append((now, pid))
    if runningWarm[pid] == nil { children[pid]?.exit = at(now) { [unowned self] in finish(pid, .exited(0)) } }
  }

  /// The warm run `pid`'s run ended with `status`: reported, and the warm run waits for the next, or
  /// ends when it was let go.
  private func endWarmRunning(_ pid: Int32, _ status: Int32) {
    guard let running = runningWarm.removeValue(forKey: pid) else { return }
    running.finished(status)
    if retired.contains(pid) || status == 3 { finish(pid, .exited(status)) }
  }

  /// Ends the warm run `pid` at `time` (someone killed it).
  func endWarmRun(_ pid: Int32, at time: String) throws {
    try at(time) { [unowned self] in
      if let running = runningWarm.removeValue(forKey: pid) { cancel(running.end) }
      finish(pid, .signalled(SIGKILL))
    }
  }

  func signal(_ pid: Int32, _ signal: Int32) {
    signalsSent.append((pid, signal))
    if let running = runningWarm[pid], signal != SIGKILL, let cancelTime {
      // A warm run's run cancels, reports it, and the warm run ends.
      cancel(running.end)
      runningWarm[pid]?.end = at(now + cancelTime) { [unowned self] in endWarmRunning(pid, 3) }
      return
    }
    guard let child = children[pid] else { return }
    if signal == SIGKILL {
      cancel(child.exit)
      children[pid]?.exit = at(now) { [unowned self] in finish(pid, .signalled(SIGKILL)) }
    } else if let cancelTime {
      cancel(child.exit)
      children[pid]?.exit = at(now + cancelTime) { [unowned self] in finish(pid, .exited(3)) }
    }
  }

  private func finish(_ pid: Int32, _ termination: Termination) {
    guard let child = children.removeValue(forKey: pid) else { return }
    child.ended(termination)
  }

  // MARK: - LibraryWatcher, SignalSource

  func watch(_ folders: [String], changed: @escaping @Sendable () -> Void) {
    watchedFolders.append(folders)
    self.changed = changed
  }

  func start(_ received: @escaping @Sendable (Int32) -> Void) {
    self.received = received
  }

  // MARK: - WorkflowSource

  func load() -> LoadedWorkflows {
    defer { problems = [] }
    let known = Set(workflows.map(\.path) + problems.map(\.path))
    var loaded = LoadedWorkflows(workflows: workflows, problems: problems, folders: folders, known: known)
    loaded.automations = automations
    return loaded
  }

  // MARK: - FileTriggerSource, StatusStore

  func arm(_ watches: [FileWatch]) { armedWatches.append(watches) }

  func save(_ status: SchedulerStatus) { lastStatus = status }

  func arm(_ sources: Set<MachineSource>, shortcuts: [HotkeyShortcut]) {
    armedSources.append(sources)
    armedShortcuts = shortcuts
  }

  func holdSleep() { if sleepHeld.last != true { sleepHeld.append(true) } }
  func releaseSleep() { if sleepHeld.last == true { sleepHeld.append(false) } }

  /// `event` happens on the machine at `time`.
  func happens(_ event: MachineEvent, at time: String) throws {
    try at(time) { [unowned self] in post(.machine(event)) }
  }

  /// Files of the watch `id` arrive at `time`, as one batch of the kernel's.
  func files(_ paths: [String], watch id: Int = 1, kind: Trigger.FileEvent = .created, at time: String) throws {
    try at(time) { [unowned self] in post(.filesArrived(paths.map { FileEvent(watch: id, path: $0, kind: kind) })) }
  }

  // MARK: - FireRecordStore

  func load() -> [String: Date] { record }

  func save(_ record: [String: Date]) throws(RecordFailure) {
    if recordFails { throw RecordFailure("no space left on device") }
    self.record = record
  }

  // MARK: - RunLedger

  func holder(of path: String) -> RunHolder? { othersRunning[path] }

  func recordSkipped(_ workflow: ScheduledWorkflow, trigger: FireTrigger, holder: RunHolder?) {
    skips.append((workflow.path, trigger, holder))
  }

  func recordFiring(_ automation: Automation, event: TriggerEvent, reason: String) {
    firingsNotRun.append((automation.path, event, reason))
  }

  // MARK: - Reading what happened

  /// The runs started, as "ISO-TIME PATH TRIGGER" in UTC.
  var started: [String] {
    launches.map { launch in
      let arguments = launch.request.arguments
      return "\(utc(launch.time)) \(arguments.last ?? "") \(arguments.dropLast().last ?? "")"
    }
  }

  /// The activities as short lines, for comparing.
  var log: [String] {
    activities.map { activity in
      switch activity {
      case .loaded(let count, _, let reason): "loaded \(count)\(reason.map { " (\($0.rawValue))" } ?? "")"
      case .scheduled(let workflow, let next): "scheduled \(workflow.path) next \(next.map { utc($0.date) } ?? "-")"
      case .unscheduled(let workflow): "unscheduled \(workflow.path)"
      case .problems(let problem): "problems \(problem.path)\(problem.leftOut ? " left out" : "")"
      case .clockChanged(let now): "clock changed \(utc(now))"
      case .runStarted(let run):
        "started \(run.id) \(run.workflow.path) \(run.trigger.rawValue) for \(utc(run.fire.date)) x\(run.fires)"
      case .runEnded(let run, let termination, let ended): "ended \(run.id) \(termination) at \(utc(ended))"
      case .skipped(let workflow, let fire, let trigger, let holder):
        "skipped \(workflow.path) \(trigger.rawValue) for \(utc(fire.date)) held by \(holder?.runID ?? "-")"
      case .launchFailed(let workflow, _, let message): "launch failed \(workflow.path): \(message)"
      case .recordFailed(let message): "record failed: \(message)"
      case .stopping(let signal, let runs): "stopping \(signal) \(runs)"
      case .killed(let run): "killed \(run.id)"
      case .stopped: "stopped"
      case .armed(let automation): "armed \(automation.path)"
      case .disarmed(let automation): "disarmed \(automation.path)"
      case .notArmed(_, let path, let reason): "not armed \(path): \(reason)"
      case .watchProblem(let problem): "watch problem \(problem)"
      case .triggeredRunStarted(let run):
        "started \(run.id) \(run.path) \(run.event.kind.rawValue) \(run.event.files.count)"
      case .triggeredRunEnded(let run, let termination, let ended): "ended \(run.id) \(termination) at \(utc(ended))"
      case .triggerQueued(let automation, let event, let joined):
        "\(joined ? "joined" : "queued") \(automation.path) \(event.files.count)"
      case .triggerDropped(let automation, let event, _): "dropped \(automation.path) \(event.files.count)"
      case .triggerLaunchFailed(let automation, let message): "launch failed \(automation.path): \(message)"
      case .source(let report): "source \(report)"
      }
    }
  }

  func utc(_ date: Date) -> String {
    ISO8601Text.format(Int64(date.timeIntervalSince1970.rounded(.down)), utcOffset: 0)
      .replacingOccurrences(of: "+00:00", with: "Z")
  }
}

/// A scheduled workflow at `/library/NAME.yml`.
func workflow(_ name: String, _ expressions: String..., in zoneName: String = "UTC") throws -> ScheduledWorkflow {
  let timeZone = try zone(zoneName)
  let entries = try expressions.map { Schedule.Entry(try cron($0), timeZone: timeZone, zoneName: zoneName) }
  return ScheduledWorkflow(
    name: name, path: "/library/\(name).yml", contents: "", schedule: Schedule(entries), executable: "/usr/bin/flow")
}
