import FlowTestSupport
import Foundation
import Testing

@testable import FlowScheduler

/// `flow schedule` and `flow run` as real processes, stopped and reloaded with real signals. Nothing
/// waits on a timer: each step waits for a line on the terminal, or for the process to exit, with a
/// deadline. A run starts at once through the catch-up: the fire record says the workflow last fired
/// a day ago.
@Suite(.serialized)
struct SchedulerProcessTests {
  /// Says it has started, then waits a minute: long enough to be stopped in.
  static let long = """
    flow: 1
    name: Long
    schedule: "0 * * * *"
    steps:
      - show: long run started
      - wait: 1m
      - show: never shown

    """

  /// A fresh home (its real path) with an empty library, where flow runs.
  static func machine() throws -> Machine {
    let machine = Machine(home: try temporaryDirectory().resolvingSymlinksInPath()) {
      ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": $0.path, "TERM": "dumb", "TZ": "UTC"]
    }
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    return machine
  }

  /// SIGTERM while a run is in a long step: the scheduler passes it on, the run cancels its step and
  /// is recorded cancelled, and the scheduler exits 0.
  @Test func sigtermDuringALongStepExitsZeroAndRecordsTheRunCancelled() async throws {
    let machine = try Self.machine()
    let file = machine.library.appendingPathComponent("long.yml")
    try Self.long.write(to: file, atomically: true, encoding: .utf8)
    try machine.firedYesterday([file.path])
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    try terminal.expect("flow schedule: 1 workflow scheduled; watching \(machine.library.path)\n")
    try terminal.expect("scheduled 'Long' (\(file.path)): next ")
    try terminal.expect("started 'Long' run ")
    // The fires of the last 24 hours: 24 of them, or 23 when the hour has just turned.
    try terminal.expect("catch-up for 2")
    try terminal.expect(" fires missed since ")
    try terminal.expect("long run started\n")
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopping (SIGTERM): waiting for 1 run to end\n")
    try terminal.expect("ended 'Long' run ")
    try terminal.expect(": cancelled (exit 3) in ")
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationReason == .exit)
    #expect(scheduler.terminationStatus == 0)
    #expect(!terminal.transcript.contains("never shown"))

    let runs = try await machine.runs()
    #expect(runs.count == 1)
    #expect(runs.first?["status"] as? String == "cancelled")
    #expect(runs.first?["trigger"] as? String == "catch-up")
    #expect(runs.first?["exitCode"] as? Int == 3)
  }

  /// A workflow put into the library is scheduled without a signal (inotify); SIGHUP reads everything
  /// again; a second scheduler for the same state is refused with exit 6.
  @Test func aNewWorkflowIsPickedUpAndSighupReloads() async throws {
    let machine = try Self.machine()
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    try terminal.expect("flow schedule: nothing is scheduled; watching \(machine.library.path)\n")

    let file = machine.library.appendingPathComponent("digest.yml")
    try "flow: 1\nname: Digest\nschedule: \"0 9 * * MON\"\nsteps:\n  - show: hi\n".write(
      to: file, atomically: true, encoding: .utf8)
    try terminal.expect("reloaded (files changed): 1 workflow scheduled\n")
    try terminal.expect("scheduled 'Digest' (\(file.path)): next ")

    kill(scheduler.processIdentifier, SIGHUP)
    try terminal.expect("reloaded (SIGHUP): 1 workflow scheduled\n")

    let second = try PseudoTerminal()
    let refused = try machine.spawn(["schedule"], at: second)
    try second.expect("error: a scheduler is already running for \(machine.home.path)/.local/state/flow (pid ")
    refused.waitUntilExit()
    #expect(refused.terminationStatus == 6)

    kill(scheduler.processIdentifier, SIGINT)
    try terminal.expect("stopping (SIGINT)\nstopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationStatus == 0)
  }

  /// `flow run` treats SIGTERM as Ctrl-C: the step is cancelled, exit 3, the run recorded cancelled.
  @Test func sigtermCancelsAFlowRun() async throws {
    let machine = try Self.machine()
    try Self.long.write(to: machine.home.appendingPathComponent("long.yml"), atomically: true, encoding: .utf8)
    let terminal = try PseudoTerminal()
    let run = try machine.spawn(["run", "long.yml"], at: terminal)
    try terminal.expect("long run started\n")
    kill(run.processIdentifier, SIGTERM)
    run.waitUntilExit()
    #expect(run.terminationReason == .exit)
    #expect(run.terminationStatus == 3)
    let runs = try await machine.runs()
    #expect(runs.first?["status"] as? String == "cancelled")
    #expect(runs.first?["trigger"] as? String == "manual")
  }
}

extension Machine {
  /// Writes the scheduler's fire record: each workflow last fired a day ago.
  func firedYesterday(_ paths: [String]) throws {
    let state = home.appendingPathComponent(".local/state/flow")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let yesterday = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400))
    let workflows = paths.map { "\"\($0)\": {\"lastFire\": \"\(yesterday)\"}" }.joined(separator: ", ")
    try "{\"version\": 1, \"workflows\": {\(workflows)}}".write(
      to: state.appendingPathComponent("scheduler.json"), atomically: true, encoding: .utf8)
  }

}
