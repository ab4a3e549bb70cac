import FlowDiagnostics
import FlowLibrary
import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// The scheduler on a simulated machine (``SimulatedMachine``): its fires, catch-up, skips, clock
/// changes, library changes and stopping, on an injected clock that jumps from one event to the next.
struct SchedulerTests {
  /// Twenty workflows of every kind, in five zones, for all of 2027 (some 16,000 fires): each runs
  /// exactly at each of its fire times, no more, no less.
  @Test func aYearOfFiresForTwentyWorkflows() throws {
    let machine = try SimulatedMachine(now: "2027-01-01T00:00:00Z")
    machine.workflows = try [
      workflow("w01", "0 */2 * * *"),
      workflow("w02", "30 * * * *", in: "Europe/Berlin"),
      workflow("w03", "0 9 * * MON-FRI", in: "Europe/Berlin"),
      workflow("w04", "0 0 1 * *"),
      workflow("w05", "30 2 * * *", in: "Europe/Berlin"),
      workflow("w06", "30 1 * * *", in: "America/New_York"),
      workflow("w07", "0 9 1 * MON"),
      workflow("w08", "0 */6 * * *", in: "Asia/Tokyo"),
      workflow("w09", "@daily", in: "America/New_York"),
      workflow("w10", "0 9 * * MON", in: "Europe/Berlin"),
      workflow("w11", "0 12 29 2 *"),
      workflow("w12", "5 4 * * SUN"),
      workflow("w13", "0 22 * * 1-5", "0 10 * * 6,7"),
      workflow("w14", "0 9-17/4 * * MON-FRI", in: "Europe/Berlin"),
      workflow("w15", "0 0 31 * *"),
      workflow("w16", "@weekly"),
      workflow("w17", "0 8,20 * * *", in: "America/New_York"),
      workflow("w18", "*/20 3 * * *", in: "Europe/Berlin"),
      workflow("w19", "@yearly"),
      workflow("w20", "0 18 * JAN,JUL *", in: "Australia/Sydney"),
    ]
    let start = machine.now
    try machine.run(until: "2028-01-01T00:00:00Z")
    let end = machine.now
    let launched = Dictionary(grouping: machine.launches) { $0.request.arguments.last ?? "" }
    for workflow in machine.workflows {
      var expected: [Date] = []
      while let fire = workflow.schedule.nextFire(after: expected.last ?? start), fire.date < end {
        expected.append(fire.date)
      }
      #expect(launched[workflow.path, default: []].map(\.time) == expected, "\(workflow.name)")
    }
    #expect(machine.launches.allSatisfy { $0.request.arguments.contains("scheduled") })
    #expect(machine.launches.count > 15_000)
    #expect(machine.skips.isEmpty)
    let hourly = machine.launches.first { $0.request.arguments.last == "/library/w01.yml" }
    #expect(hourly?.request.arguments == ["run", "--no-input", "--trigger", "scheduled", "/library/w01.yml"])
    #expect(machine.launches.first?.request.environment == ["HOME": "/home/ada", "FLOW_RUN_ID": "run-1"])
  }

  // MARK: - Daylight saving

  /// cronie's rule through the scheduler: a fixed time in the spring-forward gap runs once at the end of
  /// the gap, a fixed time in the repeated hour runs once, a wildcard time runs at both passes.
  @Test func springForwardInBerlinAndNewYork() throws {
    let machine = try SimulatedMachine(now: "2027-03-12T12:00:00Z")
    machine.workflows = try [
      workflow("berlin", "30 2 * * *", in: "Europe/Berlin"),
      workflow("new-york", "30 2 * * *", in: "America/New_York"),
      workflow("berlin-hourly", "30 * * * *", in: "Europe/Berlin"),
    ]
    try machine.run(until: "2027-03-29T12:00:00Z")
    #expect(
      launches(machine, "berlin", from: "2027-03-27", to: "2027-03-29T12") == [
        "2027-03-27T01:30:00Z", "2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z",
      ])
    #expect(
      launches(machine, "new-york", from: "2027-03-13", to: "2027-03-15T12") == [
        "2027-03-13T07:30:00Z", "2027-03-14T07:00:00Z", "2027-03-15T06:30:00Z",
      ])
    // 01:30 CET, then 03:30 CEST: 02:30 does not exist on 2027-03-28.
    #expect(
      launches(machine, "berlin-hourly", from: "2027-03-28T00", to: "2027-03-28T02") == [
        "2027-03-28T00:30:00Z", "2027-03-28T01:30:00Z",
      ])
  }

  @Test func fallBackInBerlinAndNewYork() throws {
    let machine = try SimulatedMachine(now: "2027-10-29T12:00:00Z")
    machine.workflows = try [
      workflow("berlin", "30 2 * * *", in: "Europe/Berlin"),
      workflow("new-york", "30 1 * * *", in: "America/New_York"),
      workflow("berlin-hourly", "30 * * * *", in: "Europe/Berlin"),
    ]
    try machine.run(until: "2027-11-08T12:00:00Z")
    #expect(
      launches(machine, "berlin", from: "2027-10-30", to: "2027-11-01T12") == [
        "2027-10-30T00:30:00Z", "2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z",
      ])
    #expect(
      launches(machine, "new-york", from: "2027-11-06", to: "2027-11-08T12") == [
        "2027-11-06T05:30:00Z", "2027-11-07T05:30:00Z", "2027-11-08T06:30:00Z",
      ])
    // 02:30 CEST and 02:30 CET: both exist on 2027-10-31.
    #expect(
      launches(machine, "berlin-hourly", from: "2027-10-30T23", to: "2027-10-31T03") == [
        "2027-10-30T23:30:00Z", "2027-10-31T00:30:00Z", "2027-10-31T01:30:00Z", "2027-10-31T02:30:00Z",
      ])
  }

  // MARK: - Catch-up

  /// After a week switched off, each workflow that missed fires runs once, as a catch-up, however many
  /// it missed; one seen for the first time does not; the record of a file that is gone goes.
  @Test func aWeekOfDowntimeIsCaughtUpOnce() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:00:00Z")
    machine.workflows = try [
      workflow("daily", "0 9 * * *"), workflow("hourly", "@hourly"), workflow("weekly", "0 9 * * MON"),
    ]
    try machine.run(until: "2027-06-07T12:00:00Z")
    #expect(machine.started.count == 5)
    #expect(machine.record["/library/hourly.yml"].map(machine.utc) == "2027-06-07T11:00:00Z")

    // Switched off for a week; meanwhile a workflow was added and one fire record is of a file now gone.
    try machine.powerOff(until: "2027-06-14T12:30:00Z")
    machine.workflows.append(try workflow("fresh", "@hourly"))
    machine.record["/library/gone.yml"] = machine.now - 86_400
    let before = machine.launches.count
    try machine.run(until: "2027-06-14T13:30:00Z")
    #expect(
      Array(machine.started[before...]) == [
        "2027-06-14T12:30:00Z /library/daily.yml catch-up",
        "2027-06-14T12:30:00Z /library/hourly.yml catch-up",
        "2027-06-14T12:30:00Z /library/weekly.yml catch-up",
        "2027-06-14T13:00:00Z /library/fresh.yml scheduled",
        "2027-06-14T13:00:00Z /library/hourly.yml scheduled",
      ])
    let catchUps = machine.log.filter { $0.contains("catch-up") }
    #expect(
      catchUps == [
        "started run-6 /library/daily.yml catch-up for 2027-06-08T09:00:00Z x7",
        "started run-7 /library/hourly.yml catch-up for 2027-06-07T12:00:00Z x169",
        "started run-8 /library/weekly.yml catch-up for 2027-06-14T09:00:00Z x1",
      ])
    #expect(machine.record["/library/gone.yml"] == nil)
    #expect(machine.record["/library/fresh.yml"].map(machine.utc) == "2027-06-14T13:00:00Z")
  }

  /// A workflow that had no fire record is seen for the first time: nothing to catch up, and from then
  /// on it is in the record.
  @Test func aWorkflowSeenForTheFirstTimeIsNotCaughtUp() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:30:00Z")
    machine.workflows = try [workflow("hourly", "@hourly")]
    try machine.run(until: "2027-06-07T08:40:00Z")
    #expect(machine.launches.isEmpty)
    #expect(machine.record["/library/hourly.yml"].map(machine.utc) == "2027-06-07T08:30:00Z")
  }

  // MARK: - Never two at once

  /// A fire that finds the workflow running — held by someone else's run, or by the scheduler's own
  /// run still going — is skipped and recorded as skipped; the next fire runs.
  @Test func aBusyLockSkipsTheFireAndRecordsIt() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:00:00Z")
    machine.workflows = try [workflow("hourly", "@hourly"), workflow("slow", "*/30 * * * *")]
    machine.durations["/library/slow.yml"] = 45 * 60
    let cron = RunHolder(runID: "cron-run", pid: 77, started: machine.now)
    machine.othersRunning["/library/hourly.yml"] = cron
    try machine.at("2027-06-07T09:30:00Z") { machine.othersRunning = [:] }
    try machine.run(until: "2027-06-07T10:10:00Z")
    #expect(
      machine.started == [
        "2027-06-07T08:30:00Z /library/slow.yml scheduled",
        "2027-06-07T09:30:00Z /library/slow.yml scheduled",
        "2027-06-07T10:00:00Z /library/hourly.yml scheduled",
      ])
    #expect(
      machine.log.filter { $0.hasPrefix("skipped") } == [
        "skipped /library/hourly.yml scheduled for 2027-06-07T09:00:00Z held by cron-run",
        "skipped /library/slow.yml scheduled for 2027-06-07T09:00:00Z held by run-1",
        "skipped /library/slow.yml scheduled for 2027-06-07T10:00:00Z held by run-2",
      ])
    #expect(machine.skips.map(\.path) == ["/library/hourly.yml", "/library/slow.yml", "/library/slow.yml"])
    #expect(machine.skips.map(\.trigger) == [.scheduled, .scheduled, .scheduled])
    #expect(machine.skips.first?.holder == cron)
  }

  // MARK: - The clock

  /// Set forward three days: one catch-up for each workflow. Set back an hour: nothing runs twice. Set
  /// back two days: every schedule starts again from the new time.
  @Test func aClockJumpRecomputesTheFires() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:00:00Z")
    machine.workflows = try [workflow("daily", "0 9 * * *"), workflow("hourly", "@hourly")]
    try machine.setClock(at: "2027-06-07T08:30:00Z", to: "2027-06-10T08:30:00Z")
    try machine.setClock(at: "2027-06-10T09:10:00Z", to: "2027-06-10T08:10:00Z")
    try machine.at("2027-06-10T10:20:00Z") {
      #expect(throws: Never.self) {
        try machine.setClock(to: "2027-06-08T10:20:00Z")
        try machine.signal(SIGTERM, at: "2027-06-08T11:30:00Z")
      }
    }
    machine.scheduler().run()
    #expect(
      machine.started == [
        "2027-06-10T08:30:00Z /library/daily.yml catch-up",
        "2027-06-10T08:30:00Z /library/hourly.yml catch-up",
        "2027-06-10T09:00:00Z /library/daily.yml scheduled",
        "2027-06-10T09:00:00Z /library/hourly.yml scheduled",
        "2027-06-10T10:00:00Z /library/hourly.yml scheduled",
        "2027-06-08T11:00:00Z /library/hourly.yml scheduled",
      ])
    #expect(
      machine.log.filter { $0.contains("clock") || $0.contains("catch-up") } == [
        "clock changed 2027-06-10T08:30:00Z",
        "started run-1 /library/daily.yml catch-up for 2027-06-07T09:00:00Z x3",
        "started run-2 /library/hourly.yml catch-up for 2027-06-07T09:00:00Z x72",
        "clock changed 2027-06-10T08:10:00Z",
        "clock changed 2027-06-08T10:20:00Z",
      ])
  }

  /// A timer that fires long after its time, as after a suspend (no clock change reported), runs the
  /// workflow once, as a catch-up for every fire it slept through.
  @Test func aLateTimerRunsOnceAsACatchUp() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:00:00Z")
    machine.workflows = try [workflow("quarter", "*/15 * * * *")]
    try machine.setClock(at: "2027-06-07T08:10:00Z", to: "2027-06-07T11:05:00Z", reported: false)
    try machine.run(until: "2027-06-07T11:20:00Z")
    #expect(
      machine.started == [
        "2027-06-07T11:05:00Z /library/quarter.yml catch-up",
        "2027-06-07T11:15:00Z /library/quarter.yml scheduled",
      ])
    #expect(machine.log.contains("started run-1 /library/quarter.yml catch-up for 2027-06-07T08:15:00Z x12"))
  }

  // MARK: - Reading the workflows again

  /// A burst of changes is read once, after a quiet quarter of a second; a removed workflow is
  /// unscheduled while its run goes on and its end is still reported; a changed schedule is
  /// rescheduled; SIGHUP reads at once.
  @Test func changesToTheLibraryAreReadOnceABurst() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T07:59:00Z")
    machine.workflows = try [workflow("a", "@hourly"), workflow("b", "@daily")]
    try machine.change(at: "2027-06-07T08:00:01Z") { $0.workflows.append(try workflow("c", "0 9 * * *")) }
    try machine.change(at: "2027-06-07T08:00:01.100Z") { _ in }
    try machine.change(at: "2027-06-07T08:00:01.200Z") { $0.workflows[1] = try workflow("b", "*/10 * * * *") }
    try machine.change(at: "2027-06-07T08:00:05Z") { $0.workflows.removeAll { $0.name == "a" } }
    try machine.signal(SIGHUP, at: "2027-06-07T08:05:00Z")
    try machine.run(until: "2027-06-07T08:06:00Z")
    #expect(
      machine.log == [
        "loaded 2",
        "scheduled /library/a.yml next 2027-06-07T08:00:00Z",
        "scheduled /library/b.yml next 2027-06-08T00:00:00Z",
        "started run-1 /library/a.yml scheduled for 2027-06-07T08:00:00Z x1",
        "loaded 3 (files-changed)",
        "scheduled /library/b.yml next 2027-06-07T08:10:00Z",
        "scheduled /library/c.yml next 2027-06-07T09:00:00Z",
        "loaded 2 (files-changed)",
        "unscheduled /library/a.yml",
        "ended run-1 exited(0) at 2027-06-07T08:00:10Z",
        "loaded 2 (sighup)",
        "stopping 15 0",
        "stopped",
      ])
    #expect(machine.watchedFolders.count == 4)
  }

  // MARK: - Problems

  /// Files that do not check are reported and left out; the others run. A fire record that cannot be
  /// written is said once; a run that cannot start is said at each fire.
  @Test func problemsAreReportedAndTheRestRuns() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T07:59:00Z")
    machine.workflows = try [workflow("a", "@hourly")]
    let bad = Diagnostic(.error, "cron-out-of-range", "hour must be 0–23, found 25", file: "/library/bad.yml")
    machine.problems = [WorkflowProblem(path: "/library/bad.yml", diagnostics: Diagnostics([bad]), leftOut: true)]
    machine.recordFails = true
    try machine.run(until: "2027-06-07T09:30:00Z")
    #expect(machine.started.count == 2)
    #expect(machine.log.filter { $0.hasPrefix("problems") } == ["problems /library/bad.yml left out"])
    #expect(machine.log.filter { $0.hasPrefix("record failed") } == ["record failed: no space left on device"])

    let failing = try SimulatedMachine(now: "2027-06-07T07:59:00Z")
    failing.workflows = try [workflow("a", "@hourly")]
    failing.launchFails = true
    try failing.run(until: "2027-06-07T09:30:00Z")
    #expect(failing.log.filter { $0.hasPrefix("launch failed") }.count == 2)
  }

  // MARK: - Stopping

  /// SIGTERM goes on to the run going, which cancels and ends; then the scheduler returns.
  @Test func sigtermStopsSchedulingAndWaitsForTheRuns() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:59:00Z")
    machine.workflows = try [workflow("slow", "@hourly")]
    machine.durations["/library/slow.yml"] = 3600
    try machine.run(until: "2027-06-07T09:00:30Z")
    #expect(
      machine.log.suffix(4) == [
        "started run-1 /library/slow.yml scheduled for 2027-06-07T09:00:00Z x1",
        "stopping 15 1",
        "ended run-1 exited(3) at 2027-06-07T09:00:30Z",
        "stopped",
      ])
    #expect(machine.signalsSent.map(\.signal) == [SIGTERM])
    // It returned as the run ended, not when the grace period would have.
    #expect(machine.now == (try machine.date("2027-06-07T09:00:30.500Z")))
  }

  /// A run that ignores the signal is killed when the grace period ends; a second stop signal kills at
  /// once.
  @Test func aRunThatDoesNotStopIsKilledAfterTheGracePeriod() throws {
    let machine = try SimulatedMachine(now: "2027-06-07T08:59:00Z")
    machine.workflows = try [workflow("stubborn", "@hourly")]
    machine.durations["/library/stubborn.yml"] = 3600
    machine.cancelTime = nil
    try machine.run(until: "2027-06-07T09:00:30Z")
    #expect(
      machine.log.suffix(4) == [
        "stopping 15 1", "killed run-1", "ended run-1 signalled(9) at 2027-06-07T09:00:33Z", "stopped",
      ])
    #expect(machine.signalsSent.map(\.signal) == [SIGTERM, SIGKILL])

    let impatient = try SimulatedMachine(now: "2027-06-07T08:59:00Z")
    impatient.workflows = try [workflow("stubborn", "@hourly")]
    impatient.durations["/library/stubborn.yml"] = 3600
    impatient.cancelTime = nil
    try impatient.signal(SIGINT, at: "2027-06-07T09:00:31Z")
    try impatient.run(until: "2027-06-07T09:00:30Z")
    #expect(
      impatient.log.suffix(4) == [
        "stopping 15 1", "killed run-1", "ended run-1 signalled(9) at 2027-06-07T09:00:31Z", "stopped",
      ])
  }

  // MARK: - Helpers

  /// The launch times (UTC) of `/library/NAME.yml` between two prefixes of ISO 8601 times.
  private func launches(_ machine: SimulatedMachine, _ name: String, from: String, to: String) -> [String] {
    machine.started.filter { $0.contains("/library/\(name).yml") }.map { String($0.prefix(20)) }
      .filter { $0 >= from && $0 < to }
  }
}
