import FlowCron
import FlowDiagnostics
import FlowHistory
import FlowLibrary
import FlowPresentation
import FlowSession
import FlowSystem
import FoundationEssentials
import Glibc

/// What `flow schedule` says as it works: one line per event on standard error, for the journal or a
/// terminal, or with `--json` one JSON object per line on standard output. The shapes are documented
/// in Documentation/Scheduling.md ("What it says").
///
/// Lines carry no time of their own unless `--timestamps` asks (journald and syslog stamp every line);
/// JSON lines always have `time`. A run's output (its `show` steps, its errors) goes to standard error
/// between these lines, as the run writes it.
public struct SchedulerLog: Sendable {
  public let context: SessionContext
  public let json: Bool
  public let timestamps: Bool

  public init(context: SessionContext, json: Bool, timestamps: Bool) {
    self.context = context
    self.json = json
    self.timestamps = timestamps
  }

  public func write(_ activity: SchedulerActivity) {
    let duration: TimeInterval? =
      switch activity {
      case .runEnded(let run, _, _): recordedDuration(of: run.id)
      case .triggeredRunEnded(let run, _, _): recordedDuration(of: run.id)
      default: nil
      }
    if json {
      writeJSON(activity, duration: duration)
    } else {
      writeText(activity, duration: duration)
    }
  }

  /// How long a run took as run history says it (`flow runs`' DURATION): the one definition of a run's
  /// duration (History.md), from its start to its end as the run records them, so that "succeeded in
  /// 52 ms" here is the figure `flow runs` shows. The process's own start-up and check are not part of
  /// it. Nil when the run left no ended record (killed, history off, gone before it could record).
  private func recordedDuration(of runID: String) -> TimeInterval? {
    let file = context.paths.history
    // Never create history to ask it: the run would have.
    guard RunHistory.exists(at: file), let history = try? RunHistory(file: file) else {
      return nil
    }
    return history.duration(ofRun: runID)
  }

  // MARK: - Text

  private func writeText(_ activity: SchedulerActivity, duration: TimeInterval?) {
    switch activity {
    case .problems(let problem):
      if problem.leftOut { line("left out \(problem.path):") }
      context.report(problem.diagnostics)
    default:
      line(Self.text(activity, duration: duration))
    }
  }

  private func line(_ text: String) {
    let stamp = timestamps ? LocalTime(context).format(context.clock.now) + " " : ""
    context.console.write(stamp + text + "\n", to: .error)
  }

  /// The line for `activity` (problems print their diagnostics instead); `duration` is an ended run's,
  /// from run history.
  public static func text(_ activity: SchedulerActivity, duration: TimeInterval? = nil) -> String {
    switch activity {
    case .loaded(let count, let folders, let reason):
      let scheduled = count == 0 ? "nothing is scheduled" : "\(Count.of(count, "workflow")) scheduled"
      guard let reason else { return "flow schedule: \(scheduled); watching \(folders.joined(separator: ", "))" }
      return "reloaded (\(reason == .signal ? "SIGHUP" : "files changed")): \(scheduled)"
    case .scheduled(let workflow, let next):
      return "scheduled \(name(workflow)): next \(next?.iso8601 ?? "never (no fire time in 400 years)")"
    case .unscheduled(let workflow):
      return "unscheduled \(name(workflow))"
    case .problems(let problem):
      return "\(problem.leftOut ? "left out" : "warnings for") \(problem.path)"
    case .clockChanged(let now):
      return "the clock was set (now \(HistoryText.timestamp(now))): fires looked at again"
    case .runStarted(let run):
      let why =
        switch (run.trigger, run.fires) {
        case (.scheduled, _): "scheduled for \(run.fire.iso8601)"
        case (.catchUp, 1): "catch-up for \(run.fire.iso8601)"
        case (.catchUp, let count): "catch-up for \(count) fires missed since \(run.fire.iso8601)"
        }
      return "started \(run.workflow.name.quoted) run \(run.id.prefix(8)) (pid \(run.pid)): \(why)"
    case .runEnded(let run, let termination, _):
      let outcome = Self.outcome(termination)
      let took = duration.map { " in \(HistoryText.duration($0))" } ?? ""
      let details = outcome.status == RunStatus.succeeded.rawValue ? "" : "; flow runs show \(run.id.prefix(8))"
      return "ended \(run.workflow.name.quoted) run \(run.id.prefix(8)): \(outcome.text)\(took)\(details)"
    case .skipped(let workflow, let fire, let trigger, let holder):
      let what = trigger == .catchUp ? "the catch-up of \(workflow.name.quoted)" : workflow.name.quoted
      let running = holder.map { " (run \($0.runID.prefix(8)), pid \($0.pid))" } ?? ""
      return "skipped \(what) at \(fire.iso8601): it is still running\(running)"
    case .launchFailed(let workflow, let fire, let message):
      return "cannot start \(workflow.name.quoted) for \(fire.iso8601): \(message)"
    case .recordFailed(let message):
      return "cannot keep the fire record (\(message)): a fire missed while stopped may not be caught up"
    case .stopping(let signal, let runs):
      let waiting = runs == 0 ? "" : ": waiting for \(Count.of(runs, "run")) to end"
      return "stopping (\(signalName(signal)))\(waiting)"
    case .killed(let run):
      return "killed \(run.workflow.name.quoted) run \(run.id.prefix(8)): still running after the grace period"
    case .stopped:
      return "stopped"
    case .armed(let automation):
      let words = automation.triggers.map { TriggerWords.words($0) }
      return
        "armed \(automation.name.quoted) (\(automation.path)): starts when \(words.joined(separator: ", or when "))"
    case .disarmed(let automation):
      return "disarmed \(automation.name.quoted) (\(automation.path))"
    case .notArmed(let name, let path, let reason):
      return "not armed \(name.quoted) (\(path)): \(reason)"
    case .watchProblem(let problem):
      return "file trigger: \(problem)"
    case .triggeredRunStarted(let run):
      return
        "started \(run.name.quoted) run \(run.id.prefix(8)) (pid \(run.pid)): \(run.event.kind.rawValue) \(run.event.summary)"
    case .triggeredRunEnded(let run, let termination, _):
      let outcome = Self.outcome(termination)
      let took = duration.map { " in \(HistoryText.duration($0))" } ?? ""
      let details = outcome.status == RunStatus.succeeded.rawValue ? "" : "; flow runs show \(run.id.prefix(8))"
      return "ended \(run.name.quoted) run \(run.id.prefix(8)): \(outcome.text)\(took)\(details)"
    case .triggerQueued(let automation, let event, let joined):
      return
        "\(joined ? "joined the queued run of" : "queued a run of") \(automation.name.quoted): \(event.kind.rawValue) \(event.summary)"
    case .triggerDropped(let automation, let event, let reason):
      return "dropped a firing of \(automation.name.quoted) (\(event.kind.rawValue) \(event.summary)): \(reason)"
    case .triggerLaunchFailed(let automation, let message):
      return "cannot start \(automation.name.quoted): \(message)"
    case .source(let report):
      return report.description
    }
  }

  /// `'Favourites Digest' (/home/ada/…/favourites-digest.yml)`.
  private static func name(_ workflow: ScheduledWorkflow) -> String {
    "\(workflow.name.quoted) (\(workflow.path))"
  }

  /// How a run ended, as run history names it: the status, and the text with the exit code or signal.
  public static func outcome(_ termination: Termination) -> (status: String, text: String) {
    switch termination {
    case .exited(let code):
      let status = ExitStatus(rawValue: code).map { RunStatus($0) } ?? .failed
      return (status.rawValue, code == 0 ? status.rawValue : "\(status.rawValue) (exit \(code))")
    case .signalled(let signal):
      return (RunStatus.interrupted.rawValue, "\(RunStatus.interrupted.rawValue) (\(signalName(signal)))")
    }
  }

  public static func signalName(_ signal: Int32) -> String {
    let names = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
      SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE",
      SIGTERM: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
  }

  // MARK: - JSON

  /// One JSON line; keys that have no value are left out.
  private struct Line: Encodable {
    var event: String
    var time: String
    var workflow: String?
    var path: String?
    var run: String?
    var pid: Int32?
    var trigger: String?
    /// What a trigger brought, in a line.
    var detail: String?
    /// An armed workflow's triggers, in words.
    var triggers: [String]?
    /// A service on a bus, by name.
    var source: String?
    var fire: String?
    var fires: Int?
    var next: String?
    var status: String?
    var exitCode: Int32?
    var signal: String?
    var durationSeconds: Double?
    var holder: Holder?
    var count: Int?
    var folders: [String]?
    var reason: String?
    var message: String?
    var diagnostics: [Diagnostic]?

    struct Holder: Encodable {
      var run: String
      var pid: Int32
    }
  }

  private func writeJSON(_ activity: SchedulerActivity, duration: TimeInterval?) {
    try? context.printJSONLine(Self.line(activity, at: context.clock.now, duration: duration))
  }

  private static func line(_ activity: SchedulerActivity, at now: Date, duration: TimeInterval?) -> Line {
    var line = Line(event: "", time: HistoryText.timestamp(now))
    func describe(_ workflow: ScheduledWorkflow) {
      line.workflow = workflow.name
      line.path = workflow.path
    }
    func describe(_ run: ScheduledRun) {
      describe(run.workflow)
      line.run = run.id
      line.pid = run.pid
      line.trigger = run.trigger.rawValue
      line.fire = run.fire.iso8601
    }
    switch activity {
    case .loaded(let count, let folders, let reason):
      line.event = "loaded"
      (line.count, line.folders, line.reason) = (count, folders, reason?.rawValue)
    case .scheduled(let workflow, let next):
      line.event = "scheduled"
      describe(workflow)
      line.next = next?.iso8601
    case .unscheduled(let workflow):
      line.event = "unscheduled"
      describe(workflow)
    case .problems(let problem):
      line.event = problem.leftOut ? "left-out" : "warnings"
      line.path = problem.path
      line.diagnostics = problem.diagnostics.sorted()
    case .clockChanged:
      line.event = "clock-changed"
    case .runStarted(let run):
      line.event = "started"
      describe(run)
      line.fires = run.fires
    case .runEnded(let run, let termination, _):
      line.event = "ended"
      describe(run)
      line.status = outcome(termination).status
      switch termination {
      case .exited(let code): line.exitCode = code
      case .signalled(let signal): line.signal = signalName(signal)
      }
      line.durationSeconds = duration
    case .skipped(let workflow, let fire, let trigger, let holder):
      line.event = "skipped"
      describe(workflow)
      (line.fire, line.trigger) = (fire.iso8601, trigger.rawValue)
      line.holder = holder.map { Line.Holder(run: $0.runID, pid: $0.pid) }
    case .launchFailed(let workflow, let fire, let message):
      line.event = "launch-failed"
      describe(workflow)
      (line.fire, line.message) = (fire.iso8601, message)
    case .recordFailed(let message):
      line.event = "record-failed"
      line.message = message
    case .stopping(let signal, let runs):
      line.event = "stopping"
      (line.signal, line.count) = (signalName(signal), runs)
    case .killed(let run):
      line.event = "killed"
      describe(run)
    case .stopped:
      line.event = "stopped"
    case .armed(let automation), .disarmed(let automation):
      line.event = { if case .armed = activity { "armed" } else { "disarmed" } }()
      (line.workflow, line.path) = (automation.name, automation.path)
      line.triggers = automation.triggers.map { TriggerWords.words($0) }
    case .notArmed(let name, let path, let reason):
      line.event = "not-armed"
      (line.workflow, line.path, line.reason) = (name, path, reason)
    case .watchProblem(let problem):
      line.event = "watch-problem"
      (line.path, line.message) = (problem.folder, problem.description)
    case .triggeredRunStarted(let run):
      line.event = "started"
      (line.workflow, line.path, line.run, line.pid) = (run.name, run.path, run.id, run.pid)
      (line.trigger, line.detail) = (run.event.kind.rawValue, run.event.summary)
    case .triggeredRunEnded(let run, let termination, _):
      line.event = "ended"
      (line.workflow, line.path, line.run, line.pid) = (run.name, run.path, run.id, run.pid)
      (line.trigger, line.detail) = (run.event.kind.rawValue, run.event.summary)
      line.status = outcome(termination).status
      switch termination {
      case .exited(let code): line.exitCode = code
      case .signalled(let signal): line.signal = signalName(signal)
      }
      line.durationSeconds = duration
    case .triggerQueued(let automation, let event, let joined):
      line.event = joined ? "joined" : "queued"
      (line.workflow, line.path) = (automation.name, automation.path)
      (line.trigger, line.detail) = (event.kind.rawValue, event.summary)
    case .triggerDropped(let automation, let event, let reason):
      line.event = "dropped"
      (line.workflow, line.path, line.reason) = (automation.name, automation.path, reason)
      (line.trigger, line.detail) = (event.kind.rawValue, event.summary)
    case .triggerLaunchFailed(let automation, let message):
      line.event = "launch-failed"
      (line.workflow, line.path, line.message) = (automation.name, automation.path, message)
    case .source(let report):
      line.event = "source"
      (line.source, line.message) = (report.source.name, report.description)
    }
    return line
  }
}

extension String {
  /// `'Favourites Digest'`: a name as messages quote it.
  fileprivate var quoted: String { "'\(self)'" }
}
