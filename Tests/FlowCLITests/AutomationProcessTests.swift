import FlowTestSupport
import Foundation
import Testing

/// `flow schedule` arming triggers as a real process, on real inotify: the gallery's `file-pdfs`
/// automation files a PDF saved into ~/Downloads, run history says which file started it, and an
/// imported automation waits for consent. Each step waits for a line the scheduler writes, never a timer.
@Suite(.serialized)
struct AutomationProcessTests {
  static let gallery = testDirectory().appendingPathComponent("../../workflows").standardizedFileURL

  @Test func aPDFSavedIntoDownloadsIsFiledByMonth() async throws {
    let machine = try SchedulerProcessTests.machine()
    let downloads = machine.home.appendingPathComponent("Downloads")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    let file = machine.library.appendingPathComponent("file-pdfs.yml")
    try FileManager.default.copyItem(at: Self.gallery.appendingPathComponent("file-pdfs.yml"), to: file)
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    // A failed expectation throws: the scheduler goes with the test.
    defer { if scheduler.isRunning { kill(scheduler.processIdentifier, SIGKILL) } }
    try terminal.expect("armed 'File PDFs' (\(file.path)): starts when a PDF appears in ~/Downloads\n")
    // A download lands under a temporary name and is renamed when complete: one run, for the PDF.
    try Data("%PDF-1.4\n".utf8).write(to: downloads.appendingPathComponent(".report.pdf.part"))
    try FileManager.default.moveItem(
      at: downloads.appendingPathComponent(".report.pdf.part"), to: downloads.appendingPathComponent("report.pdf"))
    try terminal.expect("started 'File PDFs' run ")
    try terminal.expect("file created \(downloads.path)/report.pdf\n")
    try terminal.expect("ended 'File PDFs' run ")
    try terminal.expect(": succeeded")
    let status = await machine.run(["schedule", "status", "--json"])
    let text = await machine.run(["schedule", "status"]).output
      .replacingOccurrences(of: machine.home.path, with: "HOME")
      .replacing(#/pid \d+/#, with: "pid PID")
      .replacing(#/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/#, with: "TIME")
    assertGolden(text, named: "triggers/schedule-status.txt")
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationStatus == 0)

    let month = String(ISO8601DateFormatter().string(from: Date()).prefix(7))
    let filed = machine.home.appendingPathComponent("Documents/\(month)/report.pdf")
    #expect(FileManager.default.fileExists(atPath: filed.path))
    let runs = try await machine.runs()
    #expect(runs.count == 1)
    #expect(runs.first?["trigger"] as? String == "file")
    #expect(runs.first?["triggerDetail"] as? String == "created \(downloads.path)/report.pdf")
    #expect(status.output.contains("\"words\" : \"a PDF appears in ~/Downloads\""), "\(status.output)")
    #expect(status.output.contains("\"running\" : true"))
  }

  /// Files that land while the run goes wait in one queued run (the first queues it, the next joins it);
  /// SIGTERM cancels the run going, and the queued run that never started is recorded with its files.
  @Test func firingsDuringARunQueueAndASigtermRecordsWhatWasLeft() async throws {
    let machine = try SchedulerProcessTests.machine()
    let inbox = machine.home.appendingPathComponent("Inbox")
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    try """
    flow: 1
    name: Slow
    on:
      - file: ~/Inbox
    steps:
      - show: "got ${trigger.files.count}: ${trigger.file.name}"
      - wait: 1m
    """.write(to: machine.library.appendingPathComponent("slow.yml"), atomically: true, encoding: .utf8)
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    defer { if scheduler.isRunning { kill(scheduler.processIdentifier, SIGKILL) } }
    try terminal.expect("armed 'Slow'")
    try Data("a".utf8).write(to: inbox.appendingPathComponent("a.txt"))
    try terminal.expect("got 1: a.txt\n")
    try Data("b".utf8).write(to: inbox.appendingPathComponent("b.txt"))
    try terminal.expect("queued a run of 'Slow': file created \(inbox.path)/b.txt\n")
    try Data("c".utf8).write(to: inbox.appendingPathComponent("c.txt"))
    try terminal.expect("joined the queued run of 'Slow': file created \(inbox.path)/c.txt\n")
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect(
      "dropped a firing of 'Slow' (file created \(inbox.path)/b.txt and 1 more): the scheduler stopped before its queued run could start\n"
    )
    try terminal.expect("stopping (SIGTERM): waiting for 1 run to end\n")
    try terminal.expect(": cancelled (exit 3)")
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationStatus == 0)
    let runs = try await machine.runs()
    let seen = runs.map { "\($0["status"] as? String ?? "") \($0["triggerDetail"] as? String ?? "")" }.sorted()
    #expect(
      seen == [
        "cancelled created \(inbox.path)/a.txt", "skipped created \(inbox.path)/b.txt and 1 more",
        "skipped created \(inbox.path)/c.txt",
      ], "\(seen)")
  }

  /// Warm runs, as a real process: after a firing the scheduler has the workflow's warm run started and
  /// waiting; the next firings run in it, each a run of its own, and a stop lets it go, so nothing is
  /// left behind.
  @Test func theNextFiringsRunInTheWarmRunAndAStopLetsItGo() async throws {
    let machine = try SchedulerProcessTests.machine()
    let inbox = machine.home.appendingPathComponent("Inbox")
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
    try """
    flow: 1
    name: Note
    on:
      - file: ~/Inbox
    steps:
      - show: "got ${trigger.file.name}"
    """.write(to: machine.library.appendingPathComponent("note.yml"), atomically: true, encoding: .utf8)
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    defer { if scheduler.isRunning { kill(scheduler.processIdentifier, SIGKILL) } }
    try terminal.expect("armed 'Note'")
    try Data("a".utf8).write(to: inbox.appendingPathComponent("a.txt"))
    try terminal.expect("got a.txt\n")
    try terminal.expect("ended 'Note' run ")
    // Started before the first run's end was handled: the scheduler's child waiting on a pipe.
    let warm = try Self.children(of: scheduler.processIdentifier).filter { $0.arguments.contains("--await-trigger") }
    try #require(warm.count == 1, "\(warm)")
    let exit = try ProcessExit(warm[0].pid)
    for name in ["b.txt", "c.txt"] {
      try Data("b".utf8).write(to: inbox.appendingPathComponent(name))
      // The run's own output may come before or after the scheduler's line: they are two processes.
      try terminal.expect("(pid \(warm[0].pid)): file created \(inbox.path)/\(name)\n")
      try terminal.expect(": succeeded")
    }
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationStatus == 0)
    try exit.wait(within: .seconds(30))
    let runs = try await machine.runs()
    #expect(
      runs.map { $0["triggerDetail"] as? String } == ["c.txt", "b.txt", "a.txt"].map { "created \(inbox.path)/\($0)" })
    #expect(Set(runs.compactMap { $0["id"] as? String }).count == 3)
  }

  /// The children of `pid`, with their command lines and environments, from /proc.
  static func children(of pid: Int32) throws -> [(pid: Int32, arguments: [String], environment: [String: String])] {
    let listed = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
    return listed.split(separator: " ").compactMap { Int32($0) }.compactMap { child in
      guard let arguments = FileManager.default.contents(atPath: "/proc/\(child)/cmdline"),
        let environment = FileManager.default.contents(atPath: "/proc/\(child)/environ")
      else { return nil }
      func fields(_ data: Data) -> [String] { data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } }
      let pairs = fields(environment).compactMap { entry -> (String, String)? in
        guard let equals = entry.firstIndex(of: "=") else { return nil }
        return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
      }
      return (child, fields(arguments), Dictionary(pairs, uniquingKeysWith: { $1 }))
    }
  }

  /// Imported, an automation is not armed until the person says so; `flow schedule arm` says so, and a
  /// running scheduler arms it at once.
  @Test func anImportedAutomationWaitsForConsent() async throws {
    let machine = try SchedulerProcessTests.machine()
    let imported = await machine.run(
      ["import", Self.gallery.appendingPathComponent("file-pdfs.yml").path, "--yes"], environment: ["COLUMNS": "200"])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(imported.error.contains("starts by itself when a PDF appears in ~/Downloads, and then runs without asking"))
    #expect(
      imported.error.contains(
        "its triggers are not armed: it starts by itself only after 'flow schedule arm file-pdfs'"))
    let file = machine.library.appendingPathComponent("file-pdfs.yml")
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    // A failed expectation throws: the scheduler goes with the test.
    defer { if scheduler.isRunning { kill(scheduler.processIdentifier, SIGKILL) } }
    try terminal.expect(
      "not armed 'File PDFs' (\(file.path)): it was imported, and its triggers start it only once you say so: flow schedule arm file-pdfs\n"
    )
    let armed = await machine.run(["schedule", "arm", "file-pdfs"])
    #expect(armed.status == 0)
    try terminal.expect("armed 'File PDFs' (\(file.path)): starts when a PDF appears in ~/Downloads\n")
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
  }
}

/// The daemon on the buses: python-dbusmock's UPower and NetworkManager on a private system bus, and
/// `flow schedule` as a real process watching them.
@Suite(
  .serialized,
  .enabled(
    if: BusStandIn.python != nil, "python3-dbusmock and python3-dbus are not installed: Scripts/setup.sh installs them")
)
struct AutomationBusProcessTests {
  /// UPower falling below 15% runs the gallery's battery workflow, which notifies, once: not again on the
  /// way down nor for a reading that only changes its time, and again only after the battery has risen
  /// past 15%; NetworkManager joining HomeNet runs its workflow once. A service that is not there is said
  /// once, by name, and nothing stops.
  @Test func batteryAndWifiTriggersFireOncePerEvent() async throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus(#"start upower {"OnBattery": true}"#)
    try bus("upower-display 21")
    try bus("start networkmanager")
    try bus("nm-setup HomeNet")
    try bus("start notifications")
    let machine = try SchedulerProcessTests.machine()
    // The gallery's: notifies once, naming the busiest processes, when the battery falls below 15%.
    let battery = machine.library.appendingPathComponent("battery-low.yml")
    try FileManager.default.copyItem(
      at: AutomationProcessTests.gallery.appendingPathComponent("battery-low.yml"), to: battery)
    try """
    flow: 1
    name: Home
    on:
      - wifi: {ssid: HomeNet}
      - drive: {label: BACKUP}
    steps:
      - show: home on ${trigger.ssid}
    """.write(to: machine.library.appendingPathComponent("home.yml"), atomically: true, encoding: .utf8)
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal, environment: bus.environment)
    defer { if scheduler.isRunning { kill(scheduler.processIdentifier, SIGKILL) } }
    try terminal.expect("armed 'Battery Low'")
    try terminal.expectAll([
      "UPower (org.freedesktop.UPower) is armed", "NetworkManager (org.freedesktop.NetworkManager) is armed",
      "UDisks2 (org.freedesktop.UDisks2) is not on the system bus; its triggers are armed when it appears",
    ])

    try bus("upower-percentage 16")
    try bus("upower-percentage 14")
    try terminal.expect("ended 'Battery Low' run ")
    try terminal.expect(": succeeded")
    // Further down, and a reading that changes only its time: nothing runs.
    try bus("upower-percentage 13")
    try bus("upower-update-time 1700000000")
    try bus("nm-join")
    try terminal.expect("home on HomeNet\n")
    try terminal.expect("ended 'Home' run ")
    let first = try bus("notifications")
    #expect(first == "Battery at 14%", "\(first)")
    try bus("upower-percentage 20")
    try bus("upower-percentage 12")
    try terminal.expect("ended 'Battery Low' run ")
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationStatus == 0)
    let both = try bus("notifications")
    #expect(both == "Battery at 14%;Battery at 12%", "\(both)")
    #expect(terminal.transcript.components(separatedBy: "home on").count - 1 == 1)
    #expect(terminal.transcript.components(separatedBy: "UDisks2 (org.freedesktop.UDisks2) is not").count - 1 == 1)
    let runs = try await machine.runs()
    #expect(runs.compactMap { $0["trigger"] as? String }.sorted() == ["power", "power", "wifi"])
    #expect(
      runs.compactMap { $0["triggerDetail"] as? String }.sorted() == [
        "battery-below 12%", "battery-below 14%", "joined HomeNet",
      ])
  }

}
