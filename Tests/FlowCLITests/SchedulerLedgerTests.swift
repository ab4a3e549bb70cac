import FlowCron
import FlowHistory
import FlowLibrary
import FlowTestSupport
import Foundation
import Testing

@testable import FlowCLI
@testable import FlowScheduler
@testable import FlowSession

/// The scheduler's view of the locks and run history: the lock `flow run` takes, and a skipped fire
/// recorded as `flow run` records the run it refuses.
struct SchedulerLedgerTests {
  @Test func aHeldLockIsSeenAndASkippedFireIsRecorded() async throws {
    let home = try temporaryDirectory().resolvingSymlinksInPath()
    let environment = ["HOME": home.path, "NO_COLOR": "1", "TZ": "UTC"]
    let context = SessionContext(console: BufferConsole(), environment: environment, workingDirectory: home.path)
    let file = home.appendingPathComponent("digest.yml")
    try "flow: 1\nname: Digest\nschedule: \"@hourly\"\nsteps: []\n".write(to: file, atomically: true, encoding: .utf8)
    let ledger = SchedulerLedger(context: context)
    #expect(ledger.holder(of: file.path) == nil)

    let started = Date(timeIntervalSince1970: 1_795_000_000)
    let held = try #require(
      try WorkflowLock.acquire(
        path: file.path, in: context.paths.locks,
        holder: WorkflowLock.Holder(runID: "cron0000-run", started: started, process: LinuxProcesses().current()),
        wait: false))
    let holder = try #require(ledger.holder(of: file.path))
    #expect(holder == RunHolder(runID: "cron0000-run", pid: getpid(), started: started))

    let schedule = Schedule([])
    let workflow = ScheduledWorkflow(
      name: "Digest", path: file.path, contents: "", schedule: schedule, executable: "/usr/local/bin/flow")
    ledger.recordSkipped(workflow, trigger: .catchUp, holder: holder)
    withExtendedLifetime(held) {}

    let result = await Machine.run(["runs", "--json"], in: home, environment: environment)
    let runs = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
    #expect(runs.count == 1)
    let run = try #require(runs.first)
    #expect(run["workflow"] as? String == "Digest")
    #expect(run["path"] as? String == file.path)
    #expect(run["trigger"] as? String == "catch-up")
    #expect(run["status"] as? String == "skipped")
    #expect(run["exitCode"] as? Int == 6)
    let failed = try #require(run["failedStep"] as? [String: Any])
    #expect(
      failed["message"] as? String
        == "'Digest' is already running (run cron0000, pid \(getpid()), since 2026-11-18 11:06:40)")
  }
}
