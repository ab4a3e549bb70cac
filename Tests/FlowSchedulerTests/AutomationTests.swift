import FlowDiagnostics
import FlowModel
import FlowSession
import FlowYAML
import Foundation
import Testing

@testable import FlowScheduler

/// The scheduler's triggers on a simulated machine: what fires becomes a run, one at a time per
/// workflow, bursts coalesced, storms bounded, nothing lost and nothing run twice.
struct AutomationTests {
  /// An automation of `path` whose one trigger is `on` (YAML), its `file` folder at `/home/ada/Downloads`.
  static func automation(_ path: String, _ on: String = "file: ~/Downloads/*.pdf") -> Automation {
    let text = "flow: 1\non:\n  - \(on)\nsteps: [{show: hi}]\n"
    let workflow = WorkflowDecoder.decode(YAMLDocument.load(SourceFile(path: path, text: text))).workflow
    let triggers = workflow?.triggers ?? []
    #expect(triggers.count == 1, "\(on) does not decode")
    var folders: [Int: String] = [:]
    if case .file? = triggers.first?.condition { folders[0] = "/home/ada/Downloads" }
    return Automation(name: "PDFs", path: path, triggers: triggers, folders: folders)
  }

  @Test func aFileStartsARunWithWhatFired() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.armedWatches.first == [FileWatch(id: 1, folder: "/home/ada/Downloads", pattern: "*.pdf")])
    let arguments = try #require(machine.launches.first?.request.arguments)
    #expect(
      arguments == [
        "run", "--no-input", "--wait", "--trigger-event", "file=/home/ada/Downloads/a.pdf", "--trigger-event",
        "event=created", "--trigger-event", "time=2026-12-01T09:00:01+00:00", "/library/pdfs.yml",
      ])
    #expect(machine.firingsNotRun.isEmpty)
  }

  /// An automation whose runs ask at the desktop (SPEC §11) is started without `--no-input`.
  @Test func anAutomationThatAsksAtTheDesktopIsRunWithInput() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    var automation = Self.automation("/library/pdfs.yml")
    automation.asks = true
    machine.automations = [automation]
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    let arguments = try #require(machine.launches.first?.request.arguments)
    #expect(Array(arguments.prefix(3)) == ["run", "--wait", "--trigger-event"])
  }

  /// Firings while the run goes wait in one queued run, which carries every file once, in order.
  @Test func firingsDuringARunJoinOneQueuedRun() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    let folder = "/home/ada/Downloads/"
    try machine.files([folder + "a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.files([folder + "b.pdf", folder + "c.pdf"], at: "2026-12-01T09:00:02Z")
    try machine.files([folder + "c.pdf", folder + "d.pdf"], at: "2026-12-01T09:00:03Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    let files = machine.launches.map { launch in
      launch.request.arguments.filter { $0.hasPrefix("file=") }.map { $0.dropFirst("file=\(folder)".count) }
    }
    #expect(files == [["a.pdf"], ["b.pdf", "c.pdf", "d.pdf"]])
    #expect(machine.launches.map { machine.utc($0.time) } == ["2026-12-01T09:00:01Z", "2026-12-01T09:00:11Z"])
    #expect(machine.firingsNotRun.map(\.event.files) == [[folder + "c.pdf", folder + "d.pdf"]])
    #expect(machine.firingsNotRun.allSatisfy { $0.reason.contains("joined the run already queued") })
    #expect(machine.log.contains("queued /library/pdfs.yml 2"))
    #expect(machine.log.contains("joined /library/pdfs.yml 2"))
  }

  /// A burst larger than one run's command line is run in turns, every file exactly once.
  @Test func aBurstIsRunInTurnsEveryFileOnce() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    machine.durations["/library/pdfs.yml"] = 0.5
    let paths = (1...2_500).map { "/home/ada/Downloads/\($0).pdf" }
    try machine.files(paths, at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    let given = machine.launches.flatMap { launch in
      launch.request.arguments.filter { $0.hasPrefix("file=") }.map { String($0.dropFirst("file=".count)) }
    }
    #expect(machine.launches.count == 3)
    #expect(given == paths)
  }

  /// A workflow that keeps starting itself (it writes into the folder it watches) is held to
  /// `runsPerMinute`; what fires meanwhile waits, and runs once the minute allows.
  @Test func aStormIsBoundedAndLosesNothing() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    machine.durations["/library/pdfs.yml"] = 0.1
    for second in 1...50 {
      try machine.files(
        ["/home/ada/Downloads/\(second).pdf"], at: "2026-12-01T09:00:\(String(format: "%02d", second % 60)).5Z")
    }
    try machine.run(until: "2026-12-01T09:03:00Z") { $0.runsPerMinute = 5 }
    let starts = machine.launches.map(\.time)
    for (index, start) in starts.enumerated() {
      let inMinute = starts[index...].prefix { $0.timeIntervalSince(start) < 60 }
      #expect(inMinute.count <= 5, "more than 5 runs in the minute from \(machine.utc(start))")
    }
    let given = machine.launches.flatMap { $0.request.arguments.filter { $0.hasPrefix("file=") } }
    #expect(given.count == 50)
    #expect(Set(given).count == 50)
  }

  /// Past `queuedFiles`, a firing is dropped and recorded, never silently.
  @Test func aQueueFullDropsAndRecords() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.files(["/home/ada/Downloads/b.pdf", "/home/ada/Downloads/c.pdf"], at: "2026-12-01T09:00:02Z")
    try machine.files(["/home/ada/Downloads/d.pdf"], at: "2026-12-01T09:00:03Z")
    try machine.run(until: "2026-12-01T09:01:00Z") { $0.queuedFiles = 2 }
    #expect(machine.launches.count == 2)
    #expect(machine.log.contains("dropped /library/pdfs.yml 1"))
    let dropped = try #require(machine.firingsNotRun.last)
    #expect(dropped.event.files == ["/home/ada/Downloads/d.pdf"])
    #expect(dropped.reason.contains("the queued run already carries 2 files"))
  }

  /// `settle:` waits until a file has been left alone that long: written in pieces, it runs once.
  @Test func aSettlingFileRunsOnceWhenLeftAlone() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/logs.yml", "file: {path: ~/Downloads, settle: 5s}")]
    for second in ["01", "03", "06"] {
      try machine.files(["/home/ada/Downloads/big.iso"], kind: .changed, at: "2026-12-01T09:00:\(second)Z")
    }
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.launches.map { machine.utc($0.time) } == ["2026-12-01T09:00:11Z"])
  }

  /// After a firing, the workflow's warm run starts and waits, checked, for the next firings: each is
  /// handed to it in turn, and its run has the command line a run started cold then would have had.
  @Test func theNextFiringsAreHandedToAWarmRun() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    machine.durations["/library/pdfs.yml"] = 1
    for (second, file) in [("01", "a"), ("05", "b"), ("09", "c")] {
      try machine.files(["/home/ada/Downloads/\(file).pdf"], at: "2026-12-01T09:00:\(second)Z")
    }
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.warmed.map { machine.utc($0.time) } == ["2026-12-01T09:00:01Z"])
    let warm = try #require(machine.warmed.first?.request)
    #expect(warm.arguments == ["run", "--no-input", "--wait", "--await-trigger", "/library/pdfs.yml"])
    #expect(warm.awaitsHandOver)
    #expect(machine.handOvers.map { machine.utc($0.time) } == ["2026-12-01T09:00:05Z", "2026-12-01T09:00:09Z"])
    #expect(Set(machine.handOvers.map(\.pid)).count == 1)
    #expect(
      machine.handOvers.first?.values == [
        "file=/home/ada/Downloads/b.pdf", "event=created", "time=2026-12-01T09:00:05+00:00",
      ])
    #expect(
      machine.launches.map(\.request.arguments)[1] == [
        "run", "--no-input", "--wait", "--trigger-event", "file=/home/ada/Downloads/b.pdf", "--trigger-event",
        "event=created", "--trigger-event", "time=2026-12-01T09:00:05+00:00", "/library/pdfs.yml",
      ])
    // Each firing is a run of its own: its id, its end.
    #expect(machine.log.contains { $0.hasPrefix("ended run-3 exited(0) at 2026-12-01T09:00:06Z") })
    #expect(machine.log.contains { $0.hasPrefix("ended run-4 exited(0) at 2026-12-01T09:00:10Z") })
  }

  /// A warm run no firing reaches within `warmFor` is let go: an idle automation costs no process.
  @Test func aWarmRunIsLetGoAfterAQuietSpell() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:10:00Z")
    #expect(machine.retirements.map { machine.utc($0.time) } == ["2026-12-01T09:05:01Z"])
  }

  /// After `runsPerWarmRun` firings a warm run is let go (a bound on what one process keeps from run to
  /// run), and its successor, started when it was halfway through, takes the next.
  @Test func aWarmRunIsLetGoAfterItsShareOfRuns() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    machine.durations["/library/pdfs.yml"] = 1
    for (second, file) in [("01", "a"), ("05", "b"), ("09", "c"), ("13", "d")] {
      try machine.files(["/home/ada/Downloads/\(file).pdf"], at: "2026-12-01T09:00:\(second)Z")
    }
    try machine.run(until: "2026-12-01T09:01:00Z") { $0.runsPerWarmRun = 2 }
    #expect(
      machine.warmed.map { machine.utc($0.time) } == [
        "2026-12-01T09:00:01Z", "2026-12-01T09:00:05Z", "2026-12-01T09:00:13Z",
      ])
    #expect(machine.retirements.first.map { machine.utc($0.time) } == "2026-12-01T09:00:10Z")
    #expect(machine.handOvers.map(\.pid) == [1002, 1002, 1003])
    #expect(machine.launches.count == 4)
  }

  /// A warm run that ends before its firing (someone killed it) is not handed it: the firing starts
  /// cold, as before, with a new warm run beside it.
  @Test func aFiringWhoseWarmRunHasEndedStartsCold() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    machine.durations["/library/pdfs.yml"] = 1
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.endWarmRun(1002, at: "2026-12-01T09:00:03Z")
    try machine.files(["/home/ada/Downloads/b.pdf"], at: "2026-12-01T09:00:05Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.warmed.count == 2)
    #expect(machine.handOvers.isEmpty)
    #expect(machine.launches.count == 2)
    #expect(machine.launches.last?.request.arguments.contains("file=/home/ada/Downloads/b.pdf") == true)
  }

  /// A workflow whose triggers are disarmed (its file changed or went) lets its warm run go at once,
  /// and so does a stop.
  @Test func disarmingAndStoppingLetWarmRunsGo() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml"), Self.automation("/library/other.yml")]
    machine.durations["/library/pdfs.yml"] = 1
    try machine.files(["/home/ada/Downloads/a.pdf"], watch: 1, at: "2026-12-01T09:00:01Z")
    try machine.files(["/home/ada/Downloads/a.pdf"], watch: 2, at: "2026-12-01T09:00:02Z")
    try machine.at("2026-12-01T09:00:20Z") { machine.automations.removeFirst() }
    try machine.signal(SIGHUP, at: "2026-12-01T09:00:20Z")
    try machine.run(until: "2026-12-01T09:00:30Z")
    #expect(
      machine.retirements.map { machine.utc($0.time) } == ["2026-12-01T09:00:20Z", "2026-12-01T09:00:30Z"])
    #expect(machine.log.last == "stopped")
  }

  /// SIGTERM reaches a warm run's run going: it is cancelled and recorded so, and the scheduler stops
  /// once it has ended.
  @Test func aStopCancelsAWarmRunsRun() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    machine.durations["/library/pdfs.yml"] = 1
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.at("2026-12-01T09:00:05Z") { machine.durations["/library/pdfs.yml"] = 60 }
    try machine.files(["/home/ada/Downloads/b.pdf"], at: "2026-12-01T09:00:06Z")
    try machine.run(until: "2026-12-01T09:00:08Z")
    #expect(machine.signalsSent.map(\.signal) == [SIGTERM])
    #expect(machine.log.suffix(3) == ["stopping 15 1", "ended run-3 exited(3) at 2026-12-01T09:00:08Z", "stopped"])
  }

  /// SIGTERM goes on to a triggered run, and the scheduler returns once it has ended.
  @Test func aStopWaitsForTriggeredRuns() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:00:05Z")
    #expect(machine.signalsSent.map(\.signal) == [SIGTERM])
    #expect(machine.log.suffix(3) == ["stopping 15 1", "ended run-1 exited(3) at 2026-12-01T09:00:05Z", "stopped"])
  }
}

/// Triggers on the buses' events, on the simulated machine: thresholds once per crossing, filters by
/// label and network, sleep held back for before-sleep runs.
struct MachineTriggerTests {
  static func machine(_ on: String, path: String = "/library/w.yml") throws -> SimulatedMachine {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [AutomationTests.automation(path, on)]
    machine.durations[path] = 1
    return machine
  }

  static func events(_ machine: SimulatedMachine) -> [String] {
    machine.launches.map { launch in
      launch.request.arguments.filter { $0.contains("=") && !$0.hasPrefix("time=") }.joined(separator: " ")
    }
  }

  /// UPower falling from 21% to 19% fires once; not again on the way down, nor until it has risen
  /// above the threshold.
  @Test func aBatteryThresholdFiresOncePerCrossing() throws {
    let machine = try Self.machine("power: {battery-below: 20}")
    for (second, percentage) in [(1, 21.0), (2, 19), (4, 18), (6, 15), (8, 20), (10, 21), (12, 19.5)] {
      try machine.happens(
        .battery(percentage: percentage, onBattery: true), at: "2026-12-01T09:00:\(String(format: "%02d", second))Z")
    }
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.armedSources == [[.upower]])
    #expect(
      Self.events(machine) == [
        "power=19.0 on-battery=true event=battery-below", "power=19.5 on-battery=true event=battery-below",
      ])
  }

  /// A reading already past the threshold when the scheduler starts is where the battery is, not a crossing.
  @Test func theFirstReadingIsNoCrossing() throws {
    let machine = try Self.machine("power: {battery-below: 20}")
    try machine.happens(.battery(percentage: 10, onBattery: true), at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.launches.isEmpty)
  }

  @Test func wifiFiresForItsNetworkOnly() throws {
    let machine = try Self.machine("wifi: {ssid: HomeNet}")
    try machine.happens(.wifi(joined: true, ssid: "Cafe"), at: "2026-12-01T09:00:01Z")
    try machine.happens(.wifi(joined: true, ssid: "HomeNet"), at: "2026-12-01T09:00:03Z")
    try machine.happens(.wifi(joined: false, ssid: "HomeNet"), at: "2026-12-01T09:00:05Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(Self.events(machine) == ["wifi=HomeNet event=joined"])
  }

  @Test func aDriveFiresByItsLabelWithItsMountPoint() throws {
    let machine = try Self.machine("drive: {label: BACKUP}")
    try machine.happens(
      .drive(mounted: true, label: "PHOTOS", uuid: nil, mountPoint: "/media/PHOTOS"), at: "2026-12-01T09:00:01Z")
    try machine.happens(
      .drive(mounted: true, label: "BACKUP", uuid: "1", mountPoint: "/media/BACKUP"), at: "2026-12-01T09:00:03Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(Self.events(machine) == ["drive=/media/BACKUP label=BACKUP event=mounted"])
  }

  /// Sleep waits for the before-sleep run while logind allows, and is let go as soon as it has ended.
  @Test func sleepWaitsForBeforeSleepRuns() throws {
    let machine = try Self.machine("session: before-sleep")
    try machine.happens(.session(.beforeSleep), at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(Self.events(machine) == ["session=before-sleep event=before-sleep"])
    #expect(machine.sleepHeld == [true, false])
    #expect(machine.log.contains("ended run-1 exited(0) at 2026-12-01T09:00:02Z"))
  }

  /// A hotkey is bound with the portal under its chord, and its press runs the workflow.
  @Test func aHotkeyIsBoundAndRuns() throws {
    let machine = try Self.machine("hotkey: ctrl+alt+d")
    try machine.happens(.hotkey(id: "Ctrl+Alt+D"), at: "2026-12-01T09:00:01Z")
    try machine.run(until: "2026-12-01T09:01:00Z")
    #expect(machine.armedShortcuts == [HotkeyShortcut(id: "Ctrl+Alt+D", description: "PDFs", trigger: "CTRL+ALT+d")])
    #expect(Self.events(machine) == ["hotkey=Ctrl+Alt+D event=pressed"])
  }

}

extension AutomationTests {
  /// A stop with a run queued: the queued run never starts, and is recorded with what it carried.
  @Test func aStopRecordsTheQueuedRunItDrops() throws {
    let machine = try SimulatedMachine(now: "2026-12-01T09:00:00Z")
    machine.automations = [Self.automation("/library/pdfs.yml")]
    try machine.files(["/home/ada/Downloads/a.pdf"], at: "2026-12-01T09:00:01Z")
    try machine.files(["/home/ada/Downloads/b.pdf"], at: "2026-12-01T09:00:02Z")
    try machine.run(until: "2026-12-01T09:00:05Z")
    #expect(machine.launches.count == 1)
    let dropped = try #require(machine.firingsNotRun.last)
    #expect(dropped.event.files == ["/home/ada/Downloads/b.pdf"])
    #expect(dropped.reason == "the scheduler stopped before its queued run could start")
  }
}
