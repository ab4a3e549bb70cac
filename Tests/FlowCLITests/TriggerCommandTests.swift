import FlowHistory
import FlowModel
import FlowTestSupport
import Foundation
import Testing

/// `on:` as a person meets it outside the daemon: `flow show`'s "Starts when", `flow run --trigger-event`
/// and what run history keeps of it (Documentation/Automations.md).
struct TriggerCommandTests {
  static let workflow = """
    flow: 1
    name: File PDFs
    on:
      - file: ~/Downloads/*.pdf
      - wifi: {ssid: HomeNet, event: left}
      - power: {battery-below: 15}
      - hotkey: alt+ctrl+d
      - schedule: "0 9 * * MON"
    run: ask
    notify-when-run: true
    steps:
      - show: "${trigger.kind} ${trigger.event}: ${trigger.file.name} (${trigger.files.count})"
        when: ${trigger.kind} == file
      - show: "${trigger.kind} ${trigger.event}: ${trigger.ssid}"
        when: ${trigger.kind} == wifi
      - show: "${trigger.kind} ${trigger.event}: ${trigger.battery.percentage} (${trigger.battery})"
        when: ${trigger.kind} == power
    """

  /// The same without `run: ask`, which would ask with a notification in a run nobody attends.
  static let immediate = workflow.replacingOccurrences(of: "run: ask\n", with: "")

  @Test func showSaysWhatStartsIt() async throws {
    let machine = try Machine()
    try machine.write("pdf.yml", Self.workflow)
    let shown = await machine.run(["show", "pdf.yml"], environment: ["COLUMNS": "80"])
    #expect(shown.status == 0)
    #expect(
      shown.output.contains(
        """
        Starts when
          a PDF appears in ~/Downloads
          Wi-Fi leaves HomeNet
          the battery falls below 15%
          you press Ctrl+Alt+D
          at 09:00, every Monday · 0 9 * * MON
          then asks with a notification first, and notifies when it runs
        """), "\(shown.output)")
  }

  @Test func aRunAsIfAFileArrivedSeesEveryFileInOrder() async throws {
    let machine = try Machine()
    try machine.write("pdf.yml", Self.immediate)
    let run = await machine.run(
      ["run", "pdf.yml", "--trigger-event", "file=b.pdf", "--trigger-event", "file=/tmp/a.pdf"], id: "aaaa")
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "file created: b.pdf (2)\n")
    let shown = await machine.run(["runs", "show", "aaaa"])
    #expect(
      shown.output.contains("trigger   file: created \(machine.directory.path)/b.pdf and 1 more\n"), "\(shown.output)")
    let listed = await machine.run(["runs"])
    #expect(listed.output.contains(" file "), "\(listed.output)")
  }

  /// The scheduler's warm run (`--await-trigger`) is checked, then runs each firing handed to it on
  /// standard input as a run of its own, reporting each end on descriptor 3. The workflow edited before a
  /// firing is read again: a run is of the file as it is when its trigger fires. The input's end lets it
  /// go.
  @Test func aWarmRunRunsEachFiringOfTheWorkflowAsItIsThen() async throws {
    let machine = try Machine()
    let folder = machine.directory.appendingPathComponent("warm")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("pdf.yml")
    try Self.immediate.write(to: file, atomically: true, encoding: .utf8)
    let reports = machine.directory.appendingPathComponent("reports").path
    #expect(mkfifo(reports, 0o600) == 0)
    let ended = FileHandle(fileDescriptor: open(reports, O_RDWR | O_CLOEXEC), closeOnDealloc: true)
    let read = try FolderWatch(folder, afterReading: true)
    let (input, output) = (Pipe(), Pipe())
    let run = Process()
    run.executableURL = URL(fileURLWithPath: "/bin/sh")
    run.arguments = [
      "-c", #"exec "$0" "$@" 3>"$REPORTS""#, Machine.executable.path, "run", "--no-input", "--await-trigger", file.path,
    ]
    run.environment = machine.environment.merging(["REPORTS": reports]) { $1 }
    run.currentDirectoryURL = machine.directory
    (run.standardInput, run.standardOutput, run.standardError) = (input, output, FileHandle.nullDevice)
    try run.run()
    defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) } }
    try read.next()  // The check has read the file.
    try Self.immediate.replacingOccurrences(of: "(${trigger.files.count})", with: "edited")
      .write(to: file, atomically: true, encoding: .utf8)
    for (id, path) in [("run-a", "/tmp/a.pdf"), ("run-b", "/tmp/b.pdf")] {
      try input.fileHandleForWriting.write(contentsOf: Data("\(id)\u{0}file=\(path)\u{0}event=created\u{0}\u{0}".utf8))
      #expect(ended.availableData == Data("0\n".utf8))
    }
    try input.fileHandleForWriting.close()
    let shown = try output.fileHandleForReading.readToEnd() ?? Data()
    run.waitUntilExit()
    #expect(run.terminationStatus == 0)
    #expect(String(decoding: shown, as: UTF8.self) == "file created: a.pdf edited\nfile created: b.pdf edited\n")
    #expect(try await machine.runs().compactMap { $0["id"] as? String } == ["run-b", "run-a"])
  }

  /// `--await-trigger` is the scheduler's: without the pipes it hands over, a person who types it is told.
  @Test func awaitingATriggerWithoutTheSchedulersPipesIsRefused() async throws {
    let machine = try Machine()
    try machine.write("pdf.yml", Self.immediate)
    let input = Pipe()
    let error = Pipe()
    let run = try machine.launch(["run", "--await-trigger", "pdf.yml"], input: input, error: error)
    try input.fileHandleForWriting.close()
    let said = String(decoding: try error.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    run.waitUntilExit()
    #expect(run.terminationStatus == 2)
    #expect(said.hasPrefix("error: --await-trigger is the scheduler's"), "\(said)")
  }

  @Test func otherKindsGiveTheirOwnProperties() async throws {
    let machine = try Machine()
    try machine.write("pdf.yml", Self.immediate)
    let wifi = await machine.run(["run", "pdf.yml", "--trigger-event", "wifi=HomeNet", "--trigger-event", "event=left"])
    #expect(wifi.output == "wifi left: HomeNet\n", "\(wifi.error)")
    let power = await machine.run([
      "run", "pdf.yml", "--trigger-event", "power=14", "--trigger-event", "event=battery-below",
    ])
    #expect(power.output == "power battery-below: 14 (14% on battery)\n", "\(power.error)")
  }

  @Test func badEventsAreRefusedBeforeStepOne() async throws {
    let machine = try Machine()
    try machine.write("pdf.yml", Self.immediate)
    var transcripts: [String] = []
    for event in [
      ["session=unlock"], ["wifii=HomeNet"], ["power=140"], ["file=a.pdf", "wifi=x"], ["event=joined"],
      ["hotkey=Ctrl+Q+W"], ["wifi=HomeNet", "event=joined", "label=X"],
    ] {
      let result = await machine.run(["run", "pdf.yml"] + event.flatMap { ["--trigger-event", $0] })
      #expect(result.status == 2)
      #expect(result.output == "")
      transcripts.append(
        "$ flow run pdf.yml " + event.map { "--trigger-event \($0)" }.joined(separator: " ") + "\n" + result.error)
    }
    assertGolden(transcripts.joined(separator: "\n"), named: "triggers/bad-events.txt")
  }

  /// A run by hand of a workflow that reads `${trigger}` is refused before step 1, at the first read:
  /// nothing fired, so the run would otherwise do its first steps and fail part-way (exit 1).
  @Test func aRunByHandThatReadsTheTriggerIsRefusedBeforeStepOne() async throws {
    let machine = try Machine()
    try machine.write(
      "pdf.yml",
      Self.immediate.replacingOccurrences(of: "steps:\n", with: "steps:\n  - save-file: {content: x, path: out.txt}\n"))
    let run = await machine.run(["run", "pdf.yml"], id: "bbbb")
    #expect(run.status == 2)
    #expect(!FileManager.default.fileExists(atPath: machine.directory.appending(path: "out.txt").path))
    assertGolden(transcript(run), named: "triggers/run-by-hand.txt")
    let shown = await machine.run(["runs", "show", "bbbb"])
    #expect(shown.output.contains("invalid"), "\(shown.output)")
  }

  /// A run the clock started gets only `--trigger cron` (or systemd, kubernetes, the scheduler's own): its
  /// `${trigger}` is still the schedule's, with the event and the time of the run.
  @Test func aRunTheClockStartedHasTheScheduleAsItsTrigger() async throws {
    let machine = try Machine()
    try machine.write(
      "tick.yml", "flow: 1\nschedule: \"0 9 * * *\"\nsteps:\n  - show: ${trigger.kind} ${trigger.event}\n")
    for (how, event) in [
      ("cron", "scheduled"), ("systemd", "scheduled"), ("scheduled", "scheduled"), ("catch-up", "catch-up"),
    ] {
      let run = await machine.run(["run", "--no-input", "--trigger", how, "tick.yml"])
      #expect(run.status == 0, "\(how): \(run.error)")
      #expect(run.output == "schedule \(event)\n", "\(how)")
    }
  }

  /// `flow schedule arm` of a name the library lacks says so as `flow run` does, with the closest name.
  @Test func armingANameTheLibraryLacksSuggestsTheClosest() async throws {
    let machine = try Machine()
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try Self.immediate.write(to: machine.library.appending(path: "pdf.yml"), atomically: true, encoding: .utf8)
    let armed = await machine.run(["schedule", "arm", "pfd"])
    #expect(armed.status == 2)
    assertGolden(transcript(armed), named: "triggers/arm-unknown.txt")
  }

  /// Run history names a triggered run by its kind: every kind but `schedule` (`scheduled`) is one.
  @Test func everyKindOfTriggerIsARunTrigger() {
    for kind in TriggerKind.allCases where kind != .schedule {
      #expect(RunTrigger(rawValue: kind.rawValue) != nil, "no RunTrigger '\(kind.rawValue)'")
    }
  }

  /// `schedule:` and `on: [{schedule: …}]` are one list: the scheduler, `next` and the units read it.
  @Test func aScheduleUnderOnIsTheSchedule() async throws {
    let machine = try Machine()
    try machine.write("a.yml", "flow: 1\non: [{schedule: \"0 9 * * MON\"}]\nsteps: [{show: hi}]\n")
    try machine.write("b.yml", "flow: 1\nschedule: \"0 9 * * MON\"\nsteps: [{show: hi}]\n")
    let first = await machine.run(["schedule", "next", "a.yml"])
    let second = await machine.run(["schedule", "next", "b.yml"])
    #expect(first.status == 0)
    #expect(first.output.replacingOccurrences(of: "a.yml", with: "b.yml") == second.output)
  }
}

/// `run: ask` and `notify-when-run:` on a private desktop whose dunst presses a button by itself.
@Suite(.serialized)
struct RunPolicyTests {
  static let workflow = """
    flow: 1
    name: Tidy
    on:
      - file: ~/Downloads
    run: ask
    notify-when-run: true
    steps:
      - show: tidied ${trigger.file.name}
    """

  static func run(pressing button: String) async throws -> (Machine.Result, PrivateDesktop)? {
    guard let desktop = try PrivateDesktop.start(pressing: "Run \u{201C}Tidy\u{201D}?", button: button) else {
      return nil
    }
    let machine = try Machine()
    try machine.write("tidy.yml", Self.workflow)
    let result = await machine.run(
      ["run", "tidy.yml", "--no-input", "--trigger-event", "file=/tmp/a.txt"],
      environment: desktop.environment.merging(["HOME": machine.home.path, "NO_COLOR": "1"]) { $1 }, id: "ask-1")
    let runs = await machine.run(["runs", "show", "ask-1"])
    #expect(runs.output.contains("trigger   file: created /tmp/a.txt\n"), "\(runs.output)")
    return (result, desktop)
  }

  @Test func runAsksFirstAndRunsOnRun() async throws {
    guard let (result, desktop) = try await Self.run(pressing: "Run") else { return }
    defer { desktop.stop() }
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "tidied a.txt\n")
    _ = try desktop.run("dunstctl", ["close-all"])
    let history = try desktop.run("dunstctl", ["history"])
    #expect(history.contains(#""data" : "“Tidy” ran""#), "\(history)")
  }

  @Test func dontRunCancelsBeforeStepOneAndIsRecorded() async throws {
    guard let (result, desktop) = try await Self.run(pressing: "Don't Run") else { return }
    defer { desktop.stop() }
    #expect(result.status == 3)
    #expect(result.output == "")
    #expect(result.error.contains("not run: 'Don't Run' was chosen when asked whether to run"), "\(result.error)")
  }
}
