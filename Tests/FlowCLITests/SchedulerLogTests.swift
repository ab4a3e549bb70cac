import FlowCron
import FlowDiagnostics
import FlowHistory
import FlowIntents
import FlowLibrary
import FlowModel
import FlowTestSupport
import FlowYAML
import Foundation
import Testing

@testable import FlowCLI
@testable import FlowScheduler
@testable import FlowSession

/// What `flow schedule` says, one line per event: every kind of event as text, with timestamps, and as
/// JSON lines (goldens).
struct SchedulerLogTests {
  static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z

  /// One of each event, as a scheduler would report them over a day.
  static func activities() throws -> [SchedulerActivity] {
    let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
    let expression = try #require(CronExpression.parse("0 9 * * MON", locate: { _, _ in nil }).expression)
    let schedule = Schedule([Schedule.Entry(expression, timeZone: zone, zoneName: "Europe/Berlin")])
    let digest = ScheduledWorkflow(
      name: "Favourites Digest", path: "/home/ada/.local/share/flow/workflows/favourites-digest.yml", contents: "",
      schedule: schedule, executable: "/usr/local/bin/flow")
    let fire = try #require(schedule.nextFire(after: now))
    let run = ScheduledRun(
      id: "3f2a9c1e-0000-4000-8000-000000000001", workflow: digest, trigger: .scheduled, fire: fire, fires: 1,
      pid: 4242, started: fire.date)
    var catchUp = run
    (catchUp.id, catchUp.trigger, catchUp.fires, catchUp.pid) = (
      "7c1d0e2f-0000-4000-8000-000000000002", .catchUp, 3, 4243
    )
    let file = SourceFile(
      path: "/home/ada/.local/share/flow/workflows/typo.yml", text: "flow: 1\nschedule: 0 25 * * *\n")
    let problem = Diagnostic(
      .error, "cron-out-of-range", "hour must be 0–23, found 25",
      at: SourceSpan(
        file: file, start: FlowDiagnostics.SourceLocation(line: 2, column: 13),
        end: FlowDiagnostics.SourceLocation(line: 2, column: 15)))
    let folders = ["/home/ada/.local/share/flow/workflows", "/home/ada/flows"]
    // The triggers' events: a file workflow, its runs, its queue, and the services on the buses.
    let pdfs = try #require(
      WorkflowDecoder.decode(
        YAMLDocument.load(
          SourceFile(
            path: "/home/ada/.local/share/flow/workflows/file-pdfs.yml",
            text:
              "flow: 1\nname: File PDFs\non:\n  - file: ~/Downloads/*.pdf\n  - session: unlock\nsteps: [{show: hi}]\n"))
      ).workflow)
    let automation = Automation(
      name: pdfs.name, path: pdfs.file.path, triggers: pdfs.triggers, folders: [0: "/home/ada/Downloads"])
    var firing = TriggerEvent(kind: .file, event: "created", time: now)
    firing.files = ["/home/ada/Downloads/a.pdf", "/home/ada/Downloads/b.pdf"]
    var later = firing
    later.files = ["/home/ada/Downloads/c.pdf"]
    let triggered = Scheduler.TriggeredRun(
      id: "9b8a7c6d-0000-4000-8000-000000000003", name: pdfs.name, path: pdfs.file.path, event: firing, pid: 4244,
      started: now)
    let automations: [SchedulerActivity] = [
      .armed(automation),
      .notArmed(
        name: "Tidy", path: "/home/ada/.local/share/flow/workflows/tidy.yml",
        reason: "a trigger's run cannot ask, and it would have to: the input 'folder' has no default"),
      .source(MachineSourceReport(source: .logind, state: .armed(note: nil))),
      .source(MachineSourceReport(source: .udisks, state: .absent)),
      .source(
        MachineSourceReport(
          source: .hotkeys,
          state: .unavailable("no GlobalShortcuts portal on this desktop; use a launcher entry or 'flow do'"))),
      .watchProblem(WatchProblem(folder: "/home/ada/Inbox", watches: [2], reason: .missing)),
      .triggeredRunStarted(triggered),
      .triggerQueued(automation, later, joined: false),
      .triggerQueued(automation, later, joined: true),
      .triggerDropped(automation, later, reason: "the queued run already carries 10000 files, the most it may"),
      .triggeredRunEnded(triggered, .exited(0), ended: now + 0.2),
      .triggerLaunchFailed(automation, message: "cannot start /usr/local/bin/flow: No such file or directory"),
      .disarmed(automation),
    ]
    return [
      .problems(WorkflowProblem(path: file.path, diagnostics: Diagnostics([problem]), leftOut: true)),
      .loaded(count: 1, folders: folders, reason: nil),
      .scheduled(digest, next: fire),
      .runStarted(catchUp),
      .runEnded(catchUp, .exited(1), ended: catchUp.started + 0.4),
      .runStarted(run),
      .skipped(
        digest, fire: fire, trigger: .scheduled, holder: RunHolder(runID: run.id, pid: 4242, started: fire.date)),
      .runEnded(run, .exited(0), ended: run.started + 1.25),
      .launchFailed(digest, fire: fire, message: "cannot start /usr/local/bin/flow: No such file or directory"),
      .recordFailed(message: "cannot write /home/ada/.local/state/flow/scheduler.json: No space left on device"),
      .clockChanged(now: now),
      .loaded(count: 0, folders: folders, reason: .filesChanged),
      .unscheduled(digest),
      .loaded(count: 0, folders: folders, reason: .signal),
    ] + automations + [
      .stopping(signal: SIGTERM, runs: 1),
      .killed(run),
      .runEnded(run, .signalled(SIGKILL), ended: run.started + 3),
      .stopped,
    ]
  }

  private func written(json: Bool, timestamps: Bool = false) throws -> BufferConsole {
    let console = BufferConsole()
    let home = try temporaryDirectory()
    let context = SessionContext(
      console: console, environment: ["NO_COLOR": "1", "TZ": "Europe/Berlin", "HOME": home.path], workingDirectory: "/",
      clock: ManualClock(now: Self.now))
    try Self.recordCatchUp(in: context)
    let log = SchedulerLog(context: context, json: json, timestamps: timestamps)
    for activity in try Self.activities() { log.write(activity) }
    return console
  }

  /// The catch-up run as its process records it in run history: it took 52 ms from its start to its
  /// end, though the scheduler saw its process end 400 ms after starting it. The scheduler says 52 ms,
  /// as `flow runs` does; the other run left no record, and no duration is said for it.
  static func recordCatchUp(in context: SessionContext) throws {
    let history = try RunHistory(file: context.paths.history)
    let run = try activities().compactMap { activity -> ScheduledRun? in
      if case .runStarted(let run) = activity, run.trigger == .catchUp { return run } else { return nil }
    }.first
    let catchUp = try #require(run)
    let started = catchUp.started + 0.3
    try history.record(
      RunStart(
        id: catchUp.id, workflow: catchUp.workflow.name, path: catchUp.workflow.path, contentHash: nil,
        trigger: .catchUp, started: started, process: ProcessIdentity(pid: catchUp.pid, bootID: "boot", startTime: 1)),
      RunEnd(ended: started + 0.052, status: .failed, exitCode: 1), policy: HistoryPolicy())
  }

  /// `flow runs` and the scheduler say the same duration for the same run.
  @Test func anEndedRunTakesTheDurationRunHistorySays() throws {
    let console = try written(json: false)
    #expect(console.error.contains("ended 'Favourites Digest' run 7c1d0e2f: failed (exit 1) in 52 ms;"))
    let lines = try written(json: true).output.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let ended = lines.filter { $0["event"] as? String == "ended" }
    #expect(
      ended.map { $0["run"] as? String } == [
        "7c1d0e2f-0000-4000-8000-000000000002", "3f2a9c1e-0000-4000-8000-000000000001",
        "9b8a7c6d-0000-4000-8000-000000000003", "3f2a9c1e-0000-4000-8000-000000000001",
      ])
    let seconds = try #require(ended.first?["durationSeconds"] as? Double)
    #expect(abs(seconds - 0.052) < 0.000_5)
    #expect(ended.dropFirst().allSatisfy { $0["durationSeconds"] == nil })
  }

  @Test func textLines() throws {
    let console = try written(json: false)
    #expect(console.output.isEmpty)
    assertGolden(console.error, named: "scheduler/log.txt")
  }

  @Test func timestampsStartEveryLineOfOurs() throws {
    let lines = try written(json: false, timestamps: true).error.split(separator: "\n")
    let ours = lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("/home") && !$0.hasPrefix("found") }
    #expect(ours.count == 31)
    #expect(ours.allSatisfy { $0.hasPrefix("2026-11-18 12:06:40 ") })
  }

  /// JSON lines on standard output, one object per event, nothing on standard error.
  @Test func jsonLines() throws {
    let console = try written(json: true)
    #expect(console.error.isEmpty)
    let lines = console.output.split(separator: "\n")
    #expect(lines.count == 31)
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["event"] is String && object["time"] as? String == "2026-11-18T11:06:40.000Z")
    }
    assertGolden(console.output, named: "scheduler/log.jsonl")
  }
}
