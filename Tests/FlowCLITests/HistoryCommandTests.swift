import FlowCLI
import FlowIntents
import FlowLibrary
import FlowTestSupport
import Foundation
import Testing

/// Run history through the commands, in-process: what `flow run` and `flow do` record, and what
/// `flow runs` shows, on a clock and with run ids the test fixes.
struct HistoryCommandTests {
  /// A fresh home with workflows of its own in `work/`, where flow runs; every run on one manual clock,
  /// a minute after the one before.
  static func machine(config: String? = nil) throws -> Machine {
    let home = try temporaryDirectory()
    let workflows = home.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
    if let config {
      let directory = home.appendingPathComponent(".config/flow")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try config.write(to: directory.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
    }
    return Machine(home: home, in: workflows, clock: ManualClock(), step: .seconds(60)) {
      ["NO_COLOR": "1", "HOME": $0.path, "TZ": "Europe/Berlin"]
    }
  }

  static let digest = """
    flow: 1
    name: Digest
    steps:
      - list: [a, b, c]
        as: letters
      - for-each: ${letters}
        do:
          - show: "letter ${item}"
          - text: not for b
            when: ${item} != "b"
      - wait: 2s

    """

  static let countdown = """
    flow: 1
    name: Countdown
    input:
      times: number
    steps:
      - show: counting
      - repeat: ${input.times}
        do:
          - show: ${index}

    """

  static let broken = """
    flow: 1
    nmae: Broken
    steps:
      - shw: hello

    """

  /// The session a person would have: runs that succeed, fail, are invalid, a `flow do`, a scheduled
  /// run; then the list, its filters, and each run shown.
  @Test func runsListsAndShowsWhatHappened() async throws {
    let machine = try Self.machine()
    try machine.write("digest.yml", Self.digest)
    try machine.write("countdown.yml", Self.countdown)
    try machine.write("broken.yml", Self.broken)
    var transcript = ""
    for (arguments, id) in [
      (["run", "digest.yml"], "1111aaaa-0000-4000-8000-000000000001"),
      (["run", "countdown.yml", "--input", "times=-2"], "2222bbbb-0000-4000-8000-000000000002"),
      (["run", "broken.yml"], "3333cccc-0000-4000-8000-000000000003"),
      (["do", "list", "collections", "in", "raindrop"], "4444dddd-0000-4000-8000-000000000004"),
      (["run", "digest.yml", "--trigger", "scheduled"], "5555eeee-0000-4000-8000-000000000005"),
    ] {
      transcript += machine.transcript(arguments, await machine.run(arguments, id: id))
    }
    for arguments in [
      ["runs"], ["runs", "digest"], ["runs", "--status", "failed"], ["runs", "--limit", "2"],
      ["runs", "show", "2222"], ["runs", "show", "1111"], ["runs", "show", "3333"], ["runs", "show", "4444"],
    ] {
      transcript += machine.transcript(arguments, await machine.run(arguments))
    }
    assertGolden(transcript, named: "runs/session.txt")
  }

  /// `on-failure:` steps are part of the run: listed after the others as `on-failure.1`…, the run still
  /// failed at its own step, with its own error, and the failure inside on-failure a warning after it.
  @Test func onFailureIsRecordedAsPartOfTheRun() async throws {
    let machine = try Self.machine()
    try machine.write(
      "nightly.yml",
      """
      flow: 1
      name: Nightly
      steps:
        - show: starting
        - calculate: 1 / 0
      on-failure:
        - show: "run ${run.id} failed: ${run.error.message}"
        - get-item: []

      """)
    let arguments = ["run", "nightly.yml"]
    var transcript = machine.transcript(
      arguments, await machine.run(arguments, id: "6666ffff-0000-4000-8000-000000000006"))
    for arguments in [["runs"], ["runs", "show", "6666"]] {
      transcript += machine.transcript(arguments, await machine.run(arguments))
    }
    assertGolden(transcript, named: "runs/on-failure.txt")
  }

  @Test func jsonShapes() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    _ = await machine.run(["run", "countdown.yml", "--input", "times=2"], id: "aaaa0001")
    _ = await machine.run(["run", "countdown.yml", "--input", "times=-1"], id: "bbbb0002")
    let list = await machine.run(["runs", "--json"])
    #expect(list.status == 0)
    let runs = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
    #expect(runs.map { $0["id"] as? String } == ["bbbb0002", "aaaa0001"])
    #expect(runs[0]["status"] as? String == "failed")
    #expect(runs[0]["exitCode"] as? Int == 1)
    #expect(runs[0]["trigger"] as? String == "manual")
    #expect(runs[0]["workflow"] as? String == "Countdown")
    #expect((runs[0]["path"] as? String)?.hasSuffix("/work/countdown.yml") == true)
    #expect((runs[0]["sha256"] as? String)?.count == 64)
    #expect(runs[0]["started"] as? String == "2026-11-18T11:07:40.000Z")
    #expect(runs[0]["durationSeconds"] as? Double == 0)
    let failed = try #require(runs[0]["failedStep"] as? [String: Any])
    #expect(failed["position"] as? String == "2")
    #expect(failed["action"] as? String == "repeat")
    #expect((failed["location"] as? String)?.hasSuffix("countdown.yml:7:13") == true)
    #expect(runs[1]["failedStep"] == nil)
    #expect(runs[1]["steps"] == nil)

    let shown = await machine.run(["runs", "show", "bbbb", "--json"])
    let run = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
    let steps = try #require(run["steps"] as? [[String: Any]])
    #expect(steps.map { $0["position"] as? String } == ["1", "2"])
    #expect(steps.map { $0["status"] as? String } == ["ran", "failed"])
    #expect(steps[0]["summary"] as? String == "'counting'")
    let diagnostic = try #require((run["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["code"] as? String == "step-failed")
    #expect(diagnostic["line"] as? Int == 7)
  }

  @Test func noHistoryAndHistoryOffRecordNothing() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    let run = await machine.run(["run", "countdown.yml", "--input", "times=1", "--no-history"])
    #expect(run.status == 0)
    #expect(!FileManager.default.fileExists(atPath: machine.historyFile.path))
    let listed = await machine.run(["runs"])
    #expect(listed.status == 0)
    #expect(listed.output == "")
    #expect(listed.error == "no runs recorded yet\n")

    let off = try Self.machine(config: "history: off\n")
    try off.write("countdown.yml", Self.countdown)
    #expect(await off.run(["run", "countdown.yml", "--input", "times=1"]).status == 0)
    #expect(await off.run(["do", "list", "collections", "in", "raindrop"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: off.historyFile.path))
  }

  @Test func retentionComesFromTheConfig() async throws {
    let machine = try Self.machine(config: "history:\n  keep-runs: 2\n")
    try machine.write("countdown.yml", Self.countdown)
    for index in 1...4 {
      _ = await machine.run(["run", "countdown.yml", "--input", "times=\(index)"], id: "run-\(index)")
    }
    let listed = await machine.run(["runs", "--json"])
    let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
    #expect(runs.map { $0["id"] as? String } == ["run-4", "run-3"])
  }

  @Test func aBadConfigStopsTheRun() async throws {
    let machine = try Self.machine(config: "history:\n  keep-run: 5\n")
    try machine.write("countdown.yml", Self.countdown)
    let arguments = ["run", "countdown.yml", "--input", "times=1"]
    let result = await machine.run(arguments)
    #expect(result.status == 2)
    assertGolden(machine.transcript(arguments, result), named: "run/config-error.txt")
  }

  /// The token, a `secret: true` input and a secret-sounding environment variable reach the steps
  /// and the terminal, and never the history file.
  @Test func secretsNeverReachHistory() async throws {
    let machine = try Self.machine()
    try machine.write(
      "secret.yml",
      """
      flow: 1
      name: Secret
      env: [API_TOKEN]
      input:
        pin:
          type: text
          secret: true
      steps:
        - show: "pin ${input.pin}, key ${env.API_TOKEN}"
        - repeat: ${input.pin}
          do:
            - show: never

      """)
    let secrets = ["pin-8675309", "tok-1123581321", "rd-2718281828"]
    let result = await machine.run(
      ["run", "secret.yml", "--input", "pin=pin-8675309"],
      environment: ["API_TOKEN": "tok-1123581321", "RAINDROP_TOKEN": "rd-2718281828"], id: "secret-run")
    #expect(result.status == 1)
    #expect(result.output.contains("pin pin-8675309, key tok-1123581321"))
    #expect(result.error.contains("pin-8675309"))
    // What the run wrote, before a reader moves it into the database.
    let pending = FileManager.default.contents(atPath: machine.historyFile.path + "-pending") ?? Data()
    #expect(!pending.isEmpty)
    for secret in secrets {
      #expect(pending.range(of: Data(secret.utf8)) == nil, "\(secret) in history.sqlite-pending")
    }
    let shown = await machine.run(["runs", "show", "secret-run"])
    #expect(shown.output.contains("'pin ***, key ***'"))
    #expect(shown.output.contains("expected a whole number of times, got '***'"))
    for suffix in ["", "-wal", "-shm"] {
      let bytes = FileManager.default.contents(atPath: machine.historyFile.path + suffix) ?? Data()
      for secret in secrets {
        #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in history.sqlite\(suffix)")
      }
    }
  }

  /// A run refused because another holds the workflow's lock exits 6 and is recorded as skipped.
  @Test func aHeldLockSkipsTheRun() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    let lock = try machine.holdLock(of: "countdown.yml")
    let arguments = ["run", "countdown.yml", "--input", "times=1"]
    let result = await machine.run(arguments, id: "skipped-run")
    #expect(result.status == 6)
    withExtendedLifetime(lock) {}
    var transcript = machine.transcript(arguments, result)
    transcript += machine.transcript(["runs"], await machine.run(["runs"]))
    assertGolden(
      transcript.replacingOccurrences(of: "pid \(getpid())", with: "pid PID"), named: "run/already-running.txt")
  }

  /// A clock that moves a millisecond every time it is read, as the real one does between two reads.
  final class TickingClock: FlowClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time = Date(timeIntervalSince1970: 1_795_000_000)

    var now: Date {
      lock.withLock {
        time += 0.001
        return time
      }
    }

    func sleep(for duration: Duration) async throws {}
  }

  /// A run recorded only as it ends (refused by the lock, or invalid) starts when it was attempted and
  /// ends after that, never before: its duration is never negative.
  @Test func aRunRecordedAtItsEndStartsBeforeItEnds() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    try machine.write("broken.yml", Self.broken)
    let lock = try machine.holdLock(of: "countdown.yml")
    let clock = TickingClock()
    for file in ["countdown.yml", "broken.yml"] {
      let result = await Machine.run(
        ["run", file, "--input", "times=1"], in: machine.directory, environment: machine.environment, clock: clock)
      #expect(result.status != 0)
    }
    withExtendedLifetime(lock) {}
    let listed = await Machine.run(["runs", "--json"], in: machine.directory, environment: machine.environment)
    let runs = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
    #expect(Set(runs.compactMap { $0["status"] as? String }) == ["skipped", "invalid"])
    for run in runs {
      let duration = try #require(run["durationSeconds"] as? Double)
      #expect(duration >= 0, "\(run["status"] ?? "") run lasted \(duration) s")
    }
  }

  /// A filter that matches nothing says which filter: the workflow has runs, just none with that status.
  @Test func anEmptyListSaysWhatItWasFilteredBy() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    _ = await machine.run(["run", "countdown.yml", "--input", "times=1"], id: "abc10000")
    let none = await machine.run(["runs", "countdown.yml", "--status", "failed"])
    #expect(none.status == 0)
    #expect(none.output == "")
    #expect(none.error == "no failed runs of 'countdown.yml' recorded yet\n")
    let some = await machine.run(["runs", "Countdown", "--status", "succeeded"])
    #expect(some.output.contains("abc10000"))
  }

  @Test func unknownAndAmbiguousIds() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    _ = await machine.run(["run", "countdown.yml", "--input", "times=1"], id: "abc10000")
    _ = await machine.run(["run", "countdown.yml", "--input", "times=2"], id: "abc20000")
    var transcript = ""
    for arguments in [
      ["runs", "show", "abc"], ["runs", "show", "zzz"], ["runs", "countdwn"], ["runs", "shwo"],
      ["runs", "--limit", "0"], ["runs", "--limit", "-5"],
    ] {
      let result = await machine.run(arguments)
      #expect(result.status == 2)
      transcript += machine.transcript(arguments, result)
    }
    assertGolden(transcript, named: "runs/mistakes.txt")
  }

  /// The excerpt shows the file as it ran; a note says when it has changed or gone since.
  @Test func theExcerptIsTheFileAsItRan() async throws {
    let machine = try Self.machine()
    try machine.write("countdown.yml", Self.countdown)
    _ = await machine.run(["run", "countdown.yml", "--input", "times=-1"], id: "changing")
    try machine.write("countdown.yml", "flow: 1\nsteps:\n  - show: rewritten\n")
    let changed = await machine.run(["runs", "show", "changing"])
    #expect(changed.output.contains("7 |   - repeat: ${input.times}"))
    #expect(changed.output.contains("countdown.yml has changed since"))
    try FileManager.default.removeItem(at: machine.directory.appendingPathComponent("countdown.yml"))
    let gone = await machine.run(["runs", "show", "changing"])
    #expect(gone.output.contains("countdown.yml is gone"))
  }
}

extension Machine {
  fileprivate var historyFile: URL { home.appendingPathComponent(".local/state/flow/history.sqlite") }

  /// Takes the lock of the workflow file `name` as run '9999ffff-held' of this process would.
  fileprivate func holdLock(of name: String) throws -> WorkflowLock? {
    let path = directory.appendingPathComponent(name).resolvingSymlinksInPath().path
    let holder = WorkflowLock.Holder(
      runID: "9999ffff-held", started: Date(timeIntervalSince1970: 1_795_000_000),
      process: LinuxProcesses().current())
    return try WorkflowLock.acquire(
      path: path, in: FlowPaths(environment: environment).locks, holder: holder, wait: false)
  }

  /// A transcript with this machine's home written as `~`.
  func transcript(_ arguments: [String], _ result: Result) -> String {
    ("$ flow \(arguments.joined(separator: " "))\n" + FlowCLITests.transcript(result) + "\n")
      .replacingOccurrences(of: home.path, with: "~")
  }
}

extension HistoryCommandTests {
  /// An invalid run is listed under the workflow's `name:`, as its valid runs are, not its file's.
  @Test func anInvalidRunIsRecordedUnderItsName() async throws {
    let machine = try Machine()
    try machine.write("bad-file.yml", "flow: 1\nname: My Nice Name\nsteps:\n  - shw: hi\n")
    let run = await machine.run(["run", "bad-file.yml"])
    #expect(run.status == 2)
    let runs = try await machine.runs()
    #expect(runs.first?["workflow"] as? String == "My Nice Name")
    #expect(runs.first?["status"] as? String == "invalid")
  }
}

extension HistoryCommandTests {
  /// A step whose output runs over several lines keeps them in its column of `flow runs show`.
  @Test func multiLineOutputsStayInTheirColumn() async throws {
    let machine = try Machine()
    try machine.write(
      "multi.yml", "flow: 1\nname: Multi\nsteps:\n  - text: \"line one\\nline two\"\n  - show: ${previous}\n")
    _ = await machine.run(["run", "multi.yml"], id: "5e5e5e5e-0000-4000-8000-000000000001")
    let shown = await machine.run(["runs", "show", "5e5e5e5e"])
    let steps = try #require(shown.output.components(separatedBy: "\nsteps\n").last)
    let lines = steps.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(steps)")
    // Each continuation starts in the column of its first line, where the output's quote is.
    for (first, next) in [(lines[0], lines[1]), (lines[2], lines[3])] {
      let column = try #require(first.firstIndex(of: "'")).utf16Offset(in: first)
      #expect(next.hasPrefix(String(repeating: " ", count: column) + "line two'"), "\(steps)")
    }
  }
}
