import FlowModel
import FlowPresentation
import FlowSession
import FlowSystem
import FoundationEssentials
import Glibc

/// The triggers of `on:` (SPEC §10), armed by the scheduler beside the schedules: what fired becomes a
/// `flow run --trigger-event …` child, one at a time per workflow, nothing lost.
///
/// - **Never two at once.** A firing that finds the workflow's run still going waits as the one queued
///   run; later firings join it (their files added, each once, in order), each recorded as not run of
///   its own.
/// - **Bounded.** At most ``Scheduler/Options/runsPerMinute`` runs start per workflow in a minute (a
///   workflow that writes into the folder it watches would otherwise start itself for ever): firings
///   past it wait in the queued run. A queued run carries at most ``Scheduler/Options/queuedFiles``
///   files; firings past that are dropped and recorded. A run gets at most
///   ``Scheduler/Options/filesPerRun`` files on its command line; the rest stay queued for the next.
/// - **Every firing is recorded**: the run's own record names its trigger and what it brought; a firing
///   that joins the queue or is dropped has a record of its own (status skipped, with why).
extension Scheduler {
  struct ArmedAutomation {
    var automation: Automation
    /// The id of its run going, if one is.
    var run: String?
    var queued: TriggerEvent?
    /// When its runs started in the last minute, oldest first: the storm bound.
    var starts: [Date] = []
    var lastFiring: Date?
    var lastDetail: String?
    /// Files of triggers with `settle:`, waiting until nothing has touched them for that long.
    var settling: [String: (due: Date, event: TriggerEvent)] = [:]
    /// Its warm run, started and checked ahead of its next firings.
    var warm: WarmRun?
    /// The one that takes over when the warm run has run its share: started when it is halfway
    /// through, so that the firing after its last finds it ready.
    var successor: WarmRun?
  }

  /// A warm run: `flow run --await-trigger`, started after a firing, which runs the workflow's next
  /// firings one after another, each handed to it as it comes (``TriggerHandOver``), without starting a
  /// process or checking the workflow again (Automations.md, "Warm runs").
  struct WarmRun {
    /// The id its process's end is posted under.
    var token: String
    var pid: Int32
    /// Its command line, which a firing's run must have for the warm run to run it.
    var arguments: [String]
    /// When it is let go, idle: ``Scheduler/Options/warmFor`` after the firing it last ran.
    var until: Date
    /// The run it has going, if one is.
    var running: String?
    /// How many firings it has run.
    var runs = 0
  }

  /// A run a trigger started.
  public struct TriggeredRun: Sendable {
    public var id: String
    public var name: String
    public var path: String
    public var event: TriggerEvent
    public var pid: Int32
    public var started: Date
  }

  // MARK: - Arming

  /// Arms the automations of a read of the workflows, keeping the state of those still there.
  func arm(_ loaded: LoadedWorkflows, now: Date) {
    var next: [String: ArmedAutomation] = [:]
    var owners: [Int: (path: String, trigger: Int)] = [:]
    var watches: [FileWatch] = []
    var armedNow: [Automation] = []
    for automation in loaded.automations {
      var armed = automations[automation.path] ?? ArmedAutomation(automation: automation)
      let isNew = automations[automation.path] == nil
      armed.automation = automation
      next[automation.path] = armed
      watches += automation.watches { index in
        let id = owners.count + 1
        owners[id] = (automation.path, index)
        return id
      }
      if isNew { armedNow.append(automation) }
    }
    for (path, old) in automations where next[path] == nil {
      for warm in [old.warm, old.successor].compactMap({ $0 }) { effects.launcher.retire(warm.pid) }
      report(.disarmed(old.automation))
    }
    for unarmed in loaded.unarmed where unarmedReported[unarmed.path] != unarmed.reason {
      report(.notArmed(name: unarmed.name, path: unarmed.path, reason: unarmed.reason))
    }
    unarmedReported = Dictionary(loaded.unarmed.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
    unarmed = loaded.unarmed
    automations = next
    watchOwners = owners
    effects.files.arm(watches)
    armMachine()
    // Said once the folders are watched, so that a file written as soon as the line appears is seen.
    for automation in armedNow { report(.armed(automation)) }
    saveStatus()
  }

  /// Follows the services the armed triggers need, and only those; binds their hotkeys; holds sleep
  /// back when a workflow runs before sleep.
  private func armMachine() {
    var sources: Set<MachineSource> = []
    var shortcuts: [HotkeyShortcut] = []
    var beforeSleep = false
    for path in automations.keys.sorted() {
      guard let automation = automations[path]?.automation else { continue }
      for trigger in automation.triggers {
        switch trigger.condition {
        case .file: break
        case .drive: sources.insert(.udisks)
        case .wifi, .network: sources.insert(.networkManager)
        case .power: sources.insert(.upower)
        case .session(let event):
          sources.insert(.logind)
          if event == .beforeSleep { beforeSleep = true }
        case .app: sources.insert(.apps)
        case .hotkey(let chord):
          sources.insert(.hotkeys)
          let id = chord.value.description
          if !shortcuts.contains(where: { $0.id == id }) {
            shortcuts.append(HotkeyShortcut(id: id, description: automation.name, trigger: chord.value.portalTrigger))
          }
        }
      }
    }
    sourceStates = sourceStates.filter { sources.contains($0.key) }
    effects.machine.arm(sources, shortcuts: shortcuts)
    if beforeSleep { effects.machine.holdSleep() } else if sleepRuns.isEmpty { effects.machine.releaseSleep() }
  }

  // MARK: - Events on the buses

  /// Something happened on the machine: every armed trigger it matches fires, in path order.
  func machineEvent(_ event: MachineEvent, now: Date) {
    var beforeSleepRuns = false
    for path in automations.keys.sorted() {
      guard let automation = automations[path]?.automation else { continue }
      for (index, trigger) in automation.triggers.enumerated() {
        guard let firing = firing(of: trigger, for: event, key: "\(path)#\(index)", now: now) else { continue }
        fire(path, firing, now: now)
        if case .session(.beforeSleep) = event, let run = automations[path]?.run {
          sleepRuns.insert(run)
          beforeSleepRuns = true
        }
        break  // one firing per workflow and event
      }
    }
    if case .session(.beforeSleep) = event {
      // Sleep waits for the runs, as long as logind allows, and no longer.
      if beforeSleepRuns, let limit = effects.machine.sleepDelayLimit {
        sleepDeadline = now + TimeInterval(limit.components.seconds)
      } else if !beforeSleepRuns {
        letSleep()
      }
    }
  }

  /// `session: login` fires when the scheduler starts: its user service starts with the session.
  func fireLogin(now: Date) {
    for path in automations.keys.sorted() {
      guard let automation = automations[path]?.automation,
        automation.triggers.contains(where: { $0.condition == .session(.login) })
      else { continue }
      fire(path, TriggerEvent(kind: .session, event: Trigger.SessionEvent.login.rawValue, time: now), now: now)
    }
  }

  /// Lets the machine sleep: the before-sleep runs have ended, or logind's delay is up.
  func letSleep() {
    sleepRuns = []
    sleepDeadline = nil
    effects.machine.releaseSleep()
  }

  /// What `trigger` makes of `event`: the firing, or nil when it does not match. `key` names the
  /// trigger's state of a battery threshold.
  private func firing(of trigger: Trigger, for event: MachineEvent, key: String, now: Date) -> TriggerEvent? {
    switch (trigger.condition, event) {
    case (.drive(let label, let wanted), .drive(let mounted, let driveLabel, _, let mountPoint)):
      guard (wanted == .mounted) == mounted, label.map({ $0.value == driveLabel }) ?? true else { return nil }
      var firing = TriggerEvent(kind: .drive, event: wanted.rawValue, time: now)
      (firing.text, firing.label) = (mountPoint ?? "", driveLabel)
      return firing
    case (.wifi(let ssid, let wanted), .wifi(let joined, let network)):
      guard (wanted == .joined) == joined, ssid.map({ $0.value == network }) ?? true else { return nil }
      var firing = TriggerEvent(kind: .wifi, event: wanted.rawValue, time: now)
      firing.text = network
      return firing
    case (.network(let wanted), .network(let connected)):
      guard (wanted == .connected) == connected else { return nil }
      return TriggerEvent(kind: .network, event: wanted.rawValue, time: now)
    case (.power(.plugged), .power(let onBattery)) where !onBattery,
      (.power(.unplugged), .power(let onBattery)) where onBattery:
      var firing = TriggerEvent(kind: .power, event: onBattery ? "unplugged" : "plugged", time: now)
      firing.onBattery = onBattery
      return firing
    case (.power(.batteryBelow(let threshold)), .battery(let percentage, let onBattery)),
      (.power(.batteryAbove(let threshold)), .battery(let percentage, let onBattery)):
      let below: Bool
      if case .power(.batteryBelow) = trigger.condition { below = true } else { below = false }
      let past = below ? percentage < Double(threshold) : percentage > Double(threshold)
      let was = pastThreshold[key]
      pastThreshold[key] = past
      // The first reading only says where the battery is; a crossing is a change of side.
      guard past, was == false else { return nil }
      var firing = TriggerEvent(kind: .power, event: below ? "battery-below" : "battery-above", time: now)
      (firing.battery, firing.onBattery) = (percentage, onBattery)
      return firing
    case (.session(let wanted), .session(let happened)):
      guard wanted == happened else { return nil }
      return TriggerEvent(kind: .session, event: wanted.rawValue, time: now)
    case (.app(let id, let wanted), .app(let opened, let app)):
      guard (wanted == .opened) == opened, id.value == app else { return nil }
      var firing = TriggerEvent(kind: .app, event: wanted.rawValue, time: now)
      firing.text = app
      return firing
    case (.hotkey(let chord), .hotkey(let id)):
      guard chord.value.description == id else { return nil }
      var firing = TriggerEvent(kind: .hotkey, event: "pressed", time: now)
      firing.text = id
      return firing
    default:
      return nil
    }
  }

  // MARK: - Firing

  /// Files of `file` triggers: one firing per workflow for the batch, its files in the kernel's order.
  func filesArrived(_ events: [FileEvent], now: Date) {
    var firings: [(path: String, event: TriggerEvent)] = []
    for event in events {
      guard let (path, index) = watchOwners[event.watch], let armed = automations[path] else { continue }
      var firing = TriggerEvent(kind: .file, event: event.kind.rawValue, time: now)
      firing.files = [event.path]
      if case .file(let condition) = armed.automation.triggers[index].condition, let settle = condition.settle {
        automations[path]?.settling[event.path] = (now + TimeInterval(settle.components.seconds), firing)
        continue
      }
      if let last = firings.lastIndex(where: { $0.path == path }), firings[last].event.event == firing.event {
        firings[last].event.join(firing)
      } else {
        firings.append((path, firing))
      }
    }
    for (path, event) in firings { fire(path, event, now: now) }
  }

  /// Files whose settle time has passed, as one firing per workflow.
  func settleDue(_ now: Date) {
    for path in automations.keys.sorted() {
      guard let settling = automations[path]?.settling, !settling.isEmpty else { continue }
      let due = settling.filter { $0.value.due <= now }.sorted { $0.value.due < $1.value.due }
      guard !due.isEmpty else { continue }
      for (file, _) in due { automations[path]?.settling[file] = nil }
      var event = due[0].value.event
      for (_, later) in due.dropFirst() { event.join(later.event) }
      fire(path, event, now: now)
    }
  }

  /// A trigger of the workflow at `path` fired: run it now, or queue it behind its run going.
  func fire(_ path: String, _ event: TriggerEvent, now: Date) {
    guard var armed = automations[path] else { return }
    armed.lastFiring = now
    armed.lastDetail = event.summary
    automations[path] = armed
    let busy = armed.run != nil || entries[path]?.run != nil
    let limited = armed.starts.filter { now.timeIntervalSince($0) < 60 }.count >= options.runsPerMinute
    if busy || limited || armed.queued != nil {
      queue(path, event, now: now)
    } else {
      start(path, event, now: now)
    }
    saveStatus()
  }

  private func queue(_ path: String, _ event: TriggerEvent, now: Date) {
    guard let armed = automations[path] else { return }
    if let queued = armed.queued, queued.files.count + event.files.count > options.queuedFiles {
      let reason = "the queued run already carries \(queued.files.count) files, the most it may"
      effects.ledger.recordFiring(armed.automation, event: event, reason: reason)
      report(.triggerDropped(armed.automation, event, reason: reason))
      return
    }
    guard automations[path]?.queued != nil else {
      // The queued run is this firing's: its own record says so when it runs.
      automations[path]?.queued = event
      report(.triggerQueued(armed.automation, event, joined: false))
      return
    }
    automations[path]?.queued?.join(event)
    report(.triggerQueued(armed.automation, event, joined: true))
    effects.ledger.recordFiring(
      armed.automation, event: event, reason: "it joined the run already queued, which carries what it brought")
  }

  /// Starts a triggered run: hands the firing to the workflow's warm run, or starts
  /// `flow run --no-input --wait --trigger-event … PATH` and a warm run for the firings after it.
  private func start(_ path: String, _ event: TriggerEvent, now: Date) {
    guard let armed = automations[path] else { return }
    var event = event
    if event.files.count > options.filesPerRun {
      var rest = event
      rest.files = Array(event.files.dropFirst(options.filesPerRun))
      event.files = Array(event.files.prefix(options.filesPerRun))
      if var queued = armed.queued {
        rest.join(queued)
        queued = rest
        automations[path]?.queued = queued
      } else {
        automations[path]?.queued = rest
      }
    }
    let arguments = Self.runArguments(armed.automation)
    var handed: (id: String, pid: Int32)?
    if var warm = armed.warm, warm.running == nil {
      // One whose command line is not this run's (its workflow now asks at the desktop, or no longer
      // does) is let go.
      automations[path]?.warm = nil
      let id = effects.newRunID()
      let clock = effects.clock
      let firing = TriggerHandOver.Firing(runID: id, values: event.values)
      if warm.arguments == arguments + ["--await-trigger", path],
        effects.launcher.handOver(warm.pid, firing.encoded, finished: { clock.post(.runEnded(id: id, .exited($0))) })
      {
        handed = (id, warm.pid)
        warm.running = id
        warm.runs += 1
        warm.until = now + options.warmFor
        automations[path]?.warm = warm
        // Halfway through its share, so that a burst meets a successor long ready.
        if warm.runs * 2 >= options.runsPerWarmRun, armed.successor == nil {
          automations[path]?.successor = startWarmRun(armed.automation, path: path, now: now)
        }
      } else {
        effects.launcher.retire(warm.pid)
      }
    }
    defer { warmUp(path, now: now) }
    do throws(LaunchFailure) {
      let (id, pid) = if let handed { handed } else { try launch(arguments + event.arguments + [path]) }
      let run = TriggeredRun(
        id: id, name: armed.automation.name, path: path, event: event, pid: pid, started: now)
      triggeredRuns[id] = run
      automations[path]?.run = id
      automations[path]?.starts = (armed.starts + [now]).filter { now.timeIntervalSince($0) < 60 }
      report(.triggeredRunStarted(run))
    } catch {
      report(.triggerLaunchFailed(armed.automation, message: error.description))
    }
  }

  /// A triggered run's command line, but for what fired: `flow run --no-input --wait` (with no
  /// `--no-input` for a workflow whose questions the desktop asks). `--wait`: a run someone else started
  /// (a person, cron) holds the lock, and this one follows it rather than being lost.
  private static func runArguments(_ automation: Automation) -> [String] {
    ["run"] + (automation.asks ? [] : ["--no-input"]) + ["--wait"]
  }

  /// Starts `flow` with `arguments` as a new run, which posts its end; returns its id and pid.
  private func launch(_ arguments: [String], awaitsHandOver: Bool = false) throws(LaunchFailure) -> (
    id: String, pid: Int32
  ) {
    let id = effects.newRunID()
    var environment = options.environment
    environment["FLOW_RUN_ID"] = id
    var request = LaunchRequest(executable: options.executable, arguments: arguments, environment: environment)
    request.awaitsHandOver = awaitsHandOver
    let clock = effects.clock
    return (id, try effects.launcher.launch(request) { clock.post(.runEnded(id: id, $0)) })
  }

  /// Starts the workflow's warm run, to wait checked for its next firings: a firing then costs no start
  /// of a process and no check. Only after a firing, and let go after ``Scheduler/Options/warmFor``
  /// without one: an idle automation costs no process.
  private func warmUp(_ path: String, now: Date) {
    guard options.warmFor > 0, let armed = automations[path], armed.warm == nil else { return }
    automations[path]?.warm = startWarmRun(armed.automation, path: path, now: now)
  }

  private func startWarmRun(_ automation: Automation, path: String, now: Date) -> WarmRun? {
    let arguments = Self.runArguments(automation) + ["--await-trigger", path]
    guard let (token, pid) = try? launch(arguments, awaitsHandOver: true) else { return nil }
    return WarmRun(token: token, pid: pid, arguments: arguments, until: now + options.warmFor)
  }

  /// Lets go the idle warm runs whose time is up, or every one (`all`: the scheduler stops; one with a
  /// run going ends after it).
  func coolDown(_ now: Date, all: Bool = false) {
    for (path, armed) in automations {
      if all, let successor = armed.successor {
        effects.launcher.retire(successor.pid)
        automations[path]?.successor = nil
      }
      guard let warm = armed.warm, all || (warm.running == nil && warm.until <= now) else { continue }
      effects.launcher.retire(warm.pid)
      if warm.running == nil { automations[path]?.warm = nil }
    }
  }

  /// A triggered run ended: its queued run, if any, starts now (or when the storm bound allows).
  func triggeredRunEnded(_ id: String, _ termination: Termination, now: Date) -> Bool {
    // A warm run's process ended: let go, or killed, and with it the run it had going, if any.
    if let path = automations.first(where: { $0.value.warm?.token == id || $0.value.successor?.token == id })?.key {
      guard automations[path]?.warm?.token == id else {
        automations[path]?.successor = nil
        return true
      }
      let running = automations[path]?.warm?.running
      automations[path]?.warm = nil
      if let running { _ = triggeredRunEnded(running, termination, now: now) }
      return true
    }
    guard let run = triggeredRuns.removeValue(forKey: id) else { return false }
    // Its warm run is free for the next firing; one that has run its share is let go, for its successor.
    if let warm = automations[run.path]?.warm, warm.running == id {
      automations[run.path]?.warm?.running = nil
      if warm.runs >= options.runsPerWarmRun {
        effects.launcher.retire(warm.pid)
        let successor = automations[run.path]?.successor
        automations[run.path]?.warm = successor
        automations[run.path]?.successor = nil
      }
    }
    if automations[run.path]?.run == id { automations[run.path]?.run = nil }
    if sleepRuns.remove(id) != nil, sleepRuns.isEmpty { letSleep() }
    report(.triggeredRunEnded(run, termination, ended: now))
    startQueued(now)
    saveStatus()
    return true
  }

  /// The scheduler stops: queued runs will not start, and each is recorded as not run, with what it
  /// carried, so that nothing is lost silently.
  func dropQueued() {
    for path in automations.keys.sorted() {
      guard let armed = automations[path], let queued = armed.queued else { continue }
      automations[path]?.queued = nil
      let reason = "the scheduler stopped before its queued run could start"
      effects.ledger.recordFiring(armed.automation, event: queued, reason: reason)
      report(.triggerDropped(armed.automation, queued, reason: reason))
    }
  }

  /// Starts each queued run whose workflow is free and within its bound.
  func startQueued(_ now: Date) {
    for path in automations.keys.sorted() {
      guard let armed = automations[path], let queued = armed.queued, armed.run == nil, entries[path]?.run == nil,
        armed.starts.filter({ now.timeIntervalSince($0) < 60 }).count < options.runsPerMinute
      else { continue }
      automations[path]?.queued = nil
      start(path, queued, now: now)
    }
  }

  /// The earliest time a queued run, a settling file or the end of an idle warm run is due: the
  /// scheduler's timer covers it.
  func automationsDeadline() -> Date? {
    var earliest: Date?
    func consider(_ date: Date) { if earliest.map({ date < $0 }) ?? true { earliest = date } }
    for armed in automations.values {
      for (_, settling) in armed.settling { consider(settling.due) }
      if let warm = armed.warm, warm.running == nil { consider(warm.until) }
      if armed.queued != nil, armed.run == nil, armed.starts.count >= options.runsPerMinute,
        let oldest = armed.starts.first
      {
        consider(oldest + 60)
      }
    }
    return earliest
  }

  // MARK: - Status

  /// The service a trigger listens to; nil for files.
  static func source(of trigger: Trigger) -> MachineSource? {
    switch trigger.condition {
    case .file: nil
    case .drive: .udisks
    case .wifi, .network: .networkManager
    case .power: .upower
    case .session: .logind
    case .app: .apps
    case .hotkey: .hotkeys
    }
  }

  func saveStatus() {
    var status = SchedulerStatus(pid: getpid())
    for path in automations.keys.sorted() {
      guard let armed = automations[path] else { continue }
      let automation = armed.automation
      let triggers = automation.triggers.indices.map { index in
        let trigger = automation.triggers[index]
        var state = "armed"
        if let folder = automation.folders[index], let problem = watchProblems[folder] { state = problem }
        if let source = Self.source(of: trigger), let said = sourceStates[source], !said.isArmed {
          state = said.description
        }
        return SchedulerStatus.TriggerState(
          kind: trigger.kind.rawValue, words: TriggerWords.words(trigger), state: state)
      }
      status.automations.append(
        SchedulerStatus.Armed(
          name: automation.name, path: path, triggers: triggers, running: armed.run, queued: armed.queued?.summary,
          lastFiring: armed.lastFiring, lastDetail: armed.lastDetail))
    }
    status.unarmed = unarmed.map { SchedulerStatus.Unarmed(name: $0.name, path: $0.path, reason: $0.reason) }
    let fileTriggers = automations.values.contains { !$0.automation.folders.isEmpty }
    if fileTriggers { status.sources.append(.init(name: "inotify", state: "armed")) }
    for (source, said) in sourceStates.sorted(by: { $0.key < $1.key }) {
      status.sources.append(.init(name: source.name, state: said.isArmed ? "armed" : said.description))
    }
    effects.status.save(status)
  }
}
