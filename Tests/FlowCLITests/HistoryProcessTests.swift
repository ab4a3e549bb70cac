import FlowTestSupport
import Foundation
import Testing

/// Run history and the workflow lock with real `flow` processes: two runs of one workflow, a run
/// killed with SIGKILL, and many runs writing history at once. Runs block deterministically at a
/// prompt on a pseudo-terminal; nothing waits on a timer.
@Suite(.serialized)
struct HistoryProcessTests {
  /// Shows a line, then asks: the run holds its lock and has a step in its trace while it waits.
  static let hold = """
    flow: 1
    name: Hold
    steps:
      - show: first step done
      - ask: Continue?
      - show: "answered ${previous}"

    """

  /// A fresh home holding `hold.yml`, where flow runs.
  static func machine() throws -> Machine {
    let machine = try Machine {
      ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": $0.path, "TERM": "dumb", "TZ": "UTC"]
    }
    try machine.write("hold.yml", hold)
    return machine
  }

  /// The second run of a workflow refuses at once with exit 6 and a skipped row; with --wait it runs
  /// when the first has ended, never beside it.
  @Test func twoRunsOfOneWorkflowNeverOverlap() async throws {
    let machine = try Self.machine()
    let first = try PseudoTerminal()
    let a = try machine.spawn(["run", "hold.yml"], at: first, id: "aaaa-first")
    try first.expect("Continue?: ")

    let second = try PseudoTerminal()
    let refused = try machine.spawn(["run", "hold.yml"], at: second, id: "bbbb-refused")
    try second.expect("error: 'Hold' is already running (run aaaa-fir, pid \(a.processIdentifier), since ")
    refused.waitUntilExit()
    #expect(refused.terminationStatus == 6)
    #expect(!second.transcript.contains("first step done"))

    let third = try PseudoTerminal()
    let waiting = try machine.spawn(["run", "hold.yml", "--wait"], at: third, id: "cccc-waited")
    try third.expect("waiting for 'Hold' to finish (run aaaa-fir")
    first.send("yes\n")
    try first.expect("answered yes\n")
    a.waitUntilExit()
    #expect(a.terminationStatus == 0)
    try third.expect("Continue?: ")
    third.send("later\n")
    try third.expect("answered later\n")
    waiting.waitUntilExit()
    #expect(waiting.terminationStatus == 0)

    let runs = try #require(try await machine.runsJSON([]) as? [[String: Any]])
    let byID = Dictionary(uniqueKeysWithValues: runs.map { ($0["id"] as? String ?? "", $0) })
    #expect(byID["aaaa-first"]?["status"] as? String == "succeeded")
    #expect(byID["bbbb-refused"]?["status"] as? String == "skipped")
    #expect(byID["bbbb-refused"]?["exitCode"] as? Int == 6)
    #expect(byID["cccc-waited"]?["status"] as? String == "succeeded")
    let firstEnded = try #require(byID["aaaa-first"]?["ended"] as? String)
    let waitedStarted = try #require(byID["cccc-waited"]?["started"] as? String)
    #expect(firstEnded <= waitedStarted, "the waiting run started before the first ended")
  }

  /// SIGKILL at a prompt: history stays readable, the run shows as interrupted, in the step it died in.
  @Test func aKilledRunShowsAsInterrupted() async throws {
    let machine = try Self.machine()
    let terminal = try PseudoTerminal()
    let process = try machine.spawn(["run", "hold.yml"], at: terminal, id: "dead0000-kill")
    try terminal.expect("first step done\n")
    try terminal.expect("Continue?: ")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)

    let run = try #require(try await machine.runsJSON(["show", "dead0000"]) as? [String: Any])
    #expect(run["status"] as? String == "interrupted")
    #expect(run["ended"] == nil)
    let steps = try #require(run["steps"] as? [[String: Any]])
    #expect(steps.map { $0["action"] as? String } == ["show", "ask"])
    #expect(steps.map { $0["status"] as? String } == ["ran", "running"])
    let text = await machine.run(["runs", "show", "dead0000"])
    #expect(text.output.contains("status    interrupted"))
    #expect(text.output.contains("ask   interrupted"))
  }

  /// SIGKILL in the middle of a long loop: the steps finished before it are in history all the same. The
  /// loop holds the main thread the whole time; the trace is written once a second by flow's service
  /// thread (ServiceThread), beside it.
  @Test func aRunKilledWhileBusyShowsWhatItFinished() async throws {
    let machine = try Self.machine()
    try """
    flow: 1
    name: Busy
    steps:
      - show: first step done
      - repeat: 1000000
        do:
          - repeat: 1000000
            do:
              - set: counter
                value: ${index}

    """.write(to: machine.home.appendingPathComponent("busy.yml"), atomically: true, encoding: .utf8)
    let terminal = try PseudoTerminal()
    let process = try machine.spawn(["run", "busy.yml"], at: terminal, id: "b0550000-busy")
    try terminal.expect("first step done\n")
    // Waits for the trace to reach history: each time the run writes to its state folder (inotify), not
    // on a timer. Reading history writes there too; those writes are forgotten before waiting again.
    let state = try FolderWatch(machine.home.appendingPathComponent(".local/state/flow"))
    var statuses: [String?] = []
    while true {
      let run = try await machine.runsJSON(["show", "b0550000"]) as? [String: Any]
      statuses = (run?["steps"] as? [[String: Any]])?.map { $0["status"] as? String } ?? []
      if statuses.first == "ran" { break }
      state.discard()
      try state.next()
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(statuses.prefix(2) == ["ran", "running"])
    let run = try #require(try await machine.runsJSON(["show", "b0550000"]) as? [String: Any])
    #expect(run["status"] as? String == "interrupted")
  }

  /// Ctrl-C at a prompt ends the process at once, and the run is still recorded as cancelled.
  @Test func ctrlCAtAPromptIsRecordedCancelled() async throws {
    let machine = try Self.machine()
    let terminal = try PseudoTerminal()
    let process = try machine.spawn(["run", "hold.yml"], at: terminal, id: "cafe0000-ctrl-c")
    try terminal.expect("Continue?: ")
    process.interrupt()
    try terminal.expect("cancelled\n")
    process.waitUntilExit()
    #expect(process.terminationStatus == 3)
    let run = try #require(try await machine.runsJSON(["show", "cafe0000"]) as? [String: Any])
    #expect(run["status"] as? String == "cancelled")
    #expect(run["exitCode"] as? Int == 3)
    let steps = try #require(run["steps"] as? [[String: Any]])
    #expect(steps.map { $0["status"] as? String } == ["ran", "cancelled"])
  }

  /// Sixteen processes at once, each recording a run: every row is there.
  @Test func manyProcessesWritingAtOnceLoseNoRow() async throws {
    let machine = try Self.machine()
    let count = 16
    var processes: [Process] = []
    for index in 0..<count {
      let file = machine.home.appendingPathComponent("parallel-\(index).yml")
      try "flow: 1\nname: Parallel \(index)\nsteps:\n  - show: \(index)\n".write(
        to: file, atomically: true, encoding: .utf8)
    }
    for index in 0..<count {
      let file = machine.home.appendingPathComponent("parallel-\(index).yml")
      processes.append(try machine.launch(["run", "--no-input", file.path], input: nil))
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    let runs = try #require(try await machine.runsJSON(["--limit", "100"]) as? [[String: Any]])
    #expect(runs.count == count)
    #expect(Set(runs.compactMap { $0["workflow"] as? String }).count == count)
    #expect(runs.allSatisfy { $0["status"] as? String == "succeeded" })
  }
}
