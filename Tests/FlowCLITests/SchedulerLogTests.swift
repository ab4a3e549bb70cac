import FlowDiagnostics
import FlowIntents
import FlowScheduler
import FlowTestSupport
import Foundation
import Testing

@testable import FlowCLI

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
      .stopping(signal: SIGTERM, runs: 1),
      .killed(run),
      .runEnded(run, .signalled(SIGKILL), ended: run.started + 3),
      .stopped,
    ]
  }

  private func written(json: Bool, timestamps: Bool = false) throws -> BufferConsole {
    let console = BufferConsole()
    let context = CLIContext(
      console: console, environment: ["NO_COLOR": "1", "TZ": "Europe/Berlin"], workingDirectory: "/",
      clock: ManualClock(now: Self.now))
    let log = SchedulerLog(context: context, json: json, timestamps: timestamps)
    for activity in try Self.activities() { log.write(activity) }
    return console
  }

  @Test func textLines() throws {
    let console = try written(json: false)
    #expect(console.output.isEmpty)
    assertGolden(console.error, named: "scheduler-log.txt")
  }

  @Test func timestampsStartEveryLineOfOurs() throws {
    let lines = try written(json: false, timestamps: true).error.split(separator: "\n")
    let ours = lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("/home") && !$0.hasPrefix("found") }
    #expect(ours.count == 18)
    #expect(ours.allSatisfy { $0.hasPrefix("2026-11-18 12:06:40 ") })
  }

  /// JSON lines on standard output, one object per event, nothing on standard error.
  @Test func jsonLines() throws {
    let console = try written(json: true)
    #expect(console.error.isEmpty)
    let lines = console.output.split(separator: "\n")
    #expect(lines.count == 18)
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["event"] is String && object["time"] as? String == "2026-11-18T11:06:40.000Z")
    }
    assertGolden(console.output, named: "scheduler-log.jsonl")
  }
}
