import FlowCron
import FlowDiagnostics
import FlowTestSupport
import Foundation
import Testing

@testable import FlowCLI
@testable import FlowScheduler
@testable import FlowSession

/// What the scheduler reads from real files: the library's scheduled workflows and the files named,
/// each checked in full; the rest left out with their problems, each reported once.
struct SchedulerWorkflowsTests {
  struct Home {
    let root: URL
    let library: URL
    let elsewhere: URL
    let context: SessionContext

    init() throws {
      root = try temporaryDirectory().resolvingSymlinksInPath()
      library = root.appendingPathComponent(".local/share/flow/workflows")
      elsewhere = root.appendingPathComponent("flows")
      for folder in [library, elsewhere] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      context = SessionContext(
        console: BufferConsole(), environment: ["HOME": root.path, "NO_COLOR": "1", "TZ": "UTC"],
        workingDirectory: root.path)
    }

    func write(_ text: String, to folder: URL, _ name: String) throws {
      try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
  }

  static let digest =
    "flow: 1\nname: Digest\ntimezone: Europe/Berlin\nschedule: \"0 9 * * MON\"\nsteps:\n  - show: hi\n"

  /// Each read of the library (at start, and each time inotify says it changed) brings launcher
  /// entries up to date: updated, moved with a renamed file, removed with a removed one.
  @Test func launcherEntriesFollowEachRead() throws {
    let home = try Home()
    let entries = LauncherEntries(paths: home.context.paths, executable: "/usr/local/bin/flow")
    for name in ["kept", "moved", "gone"] {
      try home.write("flow: 1\nname: \(name)\nsteps:\n  - show: hi\n", to: home.library, "\(name).yml")
      let file = home.library.appendingPathComponent("\(name).yml")
      try entries.write(try #require(LauncherEntries.decode(file)), name: name, file: file)
    }
    try home.write("flow: 1\nname: Kept and changed\nsteps:\n  - show: hi\n", to: home.library, "kept.yml")
    try FileManager.default.moveItem(
      at: home.library.appendingPathComponent("moved.yml"), to: home.library.appendingPathComponent("renamed.yml"))
    try FileManager.default.removeItem(at: home.library.appendingPathComponent("gone.yml"))
    _ = SchedulerWorkflows(context: home.context, references: [], executable: "/usr/local/bin/flow").load()
    #expect(entries.installed().map(\.name) == ["kept", "renamed"])
    #expect(entries.installed().first?.entry["Name"] == "Kept and changed")
  }

  @Test func theLibraryAndTheFilesNamedAreReadAndChecked() throws {
    let home = try Home()
    try home.write(Self.digest, to: home.library, "digest.yml")
    try home.write("flow: 1\nname: Unscheduled\nsteps:\n  - show: hi\n", to: home.library, "plain.yml")
    try home.write("flow: 1\nname: Typo\nschedule: \"0 25 * * *\"\nsteps: []\n", to: home.library, "typo.yml")
    try home.write("flow: 1\nname: Named\nschedule: \"@hourly\"\nsteps: []\n", to: home.elsewhere, "named.yml")
    try home.write("flow: 1\nname: Named plain\nsteps: []\n", to: home.elsewhere, "named-plain.yml")
    let source = SchedulerWorkflows(
      context: home.context, references: ["flows/named.yml", "flows/named-plain.yml", "flows/missing.yml", "digest"],
      executable: "/usr/local/bin/flow")

    let loaded = source.load()
    #expect(loaded.workflows.map(\.name) == ["Digest", "Named"])
    #expect(
      loaded.workflows.map(\.path) == [
        home.library.appendingPathComponent("digest.yml").path, home.elsewhere.appendingPathComponent("named.yml").path,
      ])
    #expect(loaded.workflows.first?.schedule.entries.first?.zoneName == "Europe/Berlin")
    #expect(loaded.workflows.allSatisfy { $0.executable == "/usr/local/bin/flow" })
    // The library file without a schedule is simply not scheduled; the named one is said.
    #expect(
      loaded.problems.map { URL(fileURLWithPath: $0.path).lastPathComponent } == [
        "typo.yml", "named-plain.yml", "missing.yml",
      ])
    #expect(loaded.problems.allSatisfy { $0.leftOut })
    #expect(
      loaded.problems.map { $0.diagnostics.all.first?.code } == ["cron-out-of-range", .noSchedule, .fileNotFound])
    #expect(loaded.folders == [home.library.path, home.elsewhere.path])
    #expect(loaded.known.count == 6)

    // Read again unchanged: nothing new to say. Fixed: said no more, and scheduled.
    #expect(source.load().problems.isEmpty)
    try home.write("flow: 1\nname: Typo\nschedule: \"0 23 * * *\"\nsteps: []\n", to: home.library, "typo.yml")
    let fixed = source.load()
    #expect(fixed.problems.isEmpty)
    #expect(fixed.workflows.map(\.name) == ["Digest", "Typo", "Named"])
  }

  /// A folder named like a workflow in the library is not read; a link that leads nowhere is left out
  /// with the reason, not as "no workflow named" its own path.
  @Test func foldersAreNotWorkflowsAndBrokenLinksSayWhy() throws {
    let home = try Home()
    try home.write(Self.digest, to: home.library, "digest.yml")
    try FileManager.default.createDirectory(
      at: home.library.appendingPathComponent("folder.yml"), withIntermediateDirectories: true)
    let loop = home.library.appendingPathComponent("loop.yml")
    try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
    let dangling = home.library.appendingPathComponent("gone.yml")
    try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/gone.yml")
    let source = SchedulerWorkflows(
      context: home.context, references: ["flows"], executable: "/usr/local/bin/flow")
    let loaded = source.load()
    #expect(loaded.workflows.map(\.name) == ["Digest"])
    let messages = loaded.problems.flatMap { $0.diagnostics.all.map(\.message) }
    #expect(
      messages == [
        "'\(dangling.path)' is a link that leads to no file: No such file or directory",
        "'\(loop.path)' is a link that leads to no file: Too many levels of symbolic links",
        "'flows' is a folder, not a workflow file",
      ])
  }

  /// A scheduled workflow that would have to ask is scheduled, with a warning that says what it would
  /// ask and how to fix it.
  @Test func aWorkflowThatWouldAskIsScheduledWithAWarning() throws {
    let home = try Home()
    try home.write(
      """
      flow: 1
      name: Asks
      schedule: "@daily"
      input:
        url:
          type: url
      steps:
        - confirm: Really?
          show: ${input.url}

      """, to: home.library, "asks.yml")
    let loaded = SchedulerWorkflows(context: home.context, references: [], executable: "/bin/flow").load()
    #expect(loaded.workflows.map(\.name) == ["Asks"])
    let problem = try #require(loaded.problems.first)
    #expect(!problem.leftOut)
    let text = DiagnosticRenderer(colors: false).render(problem.diagnostics)
    assertGolden(text.replacingOccurrences(of: home.root.path, with: "~"), named: "scheduler/needs-answers.txt")
  }

  /// A triggered workflow that asks is armed only where the daemon's session can ask: a display, a
  /// bus and a dialog tool for a value; a notification's buttons suffice for a confirmation.
  @Test(arguments: [
    ("ask", [String: String](), nil as String?),
    ("ask", ["DISPLAY": ":9", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "TOOL": "zenity"], "asks"),
    ("ask", ["DISPLAY": ":9", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"], nil),
    ("confirm", ["DISPLAY": ":9", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"], "asks"),
  ])
  func anAutomationThatAsksArmsWhereTheDesktopCanAsk(step: String, desktop: [String: String], armed: String?)
    throws
  {
    let home = try Home()
    let bin = home.root.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    if let tool = desktop["TOOL"] {
      try "#!/bin/sh\n".write(to: bin.appendingPathComponent(tool), atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent(tool).path)
    }
    let question = step == "ask" ? "ask: How many?" : "confirm: Go on?"
    try home.write(
      "flow: 1\nname: Asks\non:\n  - file: ~/Inbox/*.pdf\nsteps:\n  - \(question)\n", to: home.library, "asks.yml")
    var environment = home.context.environment.merging(desktop) { $1 }
    environment["TOOL"] = nil
    environment["PATH"] = bin.path
    let context = SessionContext(console: BufferConsole(), environment: environment, workingDirectory: home.root.path)
    let loaded = SchedulerWorkflows(context: context, references: [], executable: "/bin/flow").load()
    if armed == nil {
      let reason = try #require(loaded.unarmed.first?.reason)
      let why =
        desktop.isEmpty
        ? "a trigger's run cannot ask (no desktop session to show a dialog in), and it would have to: "
        : "a trigger's run can ask only with a notification's buttons (no dialog tool), and it would have to: "
      #expect(reason.hasPrefix(why), "\(reason)")
      #expect(loaded.automations.isEmpty)
    } else {
      #expect(loaded.unarmed.isEmpty)
      #expect(loaded.automations.map(\.asks) == [true])
    }
  }

  /// A scheduled workflow with a duration too long for any wait is left out with its error; loading it
  /// trapped (SIGILL) the scheduler and every command that read the library (issue 28).
  @Test func anOverflowingDurationLeavesTheWorkflowOut() throws {
    let home = try Home()
    try home.write(Self.digest, to: home.library, "digest.yml")
    try home.write(
      "flow: 1\nschedule: \"@daily\"\nsteps:\n  - wait: 1\n    timeout: 99999999999999999d\n", to: home.library,
      "long.yml")
    let loaded = SchedulerWorkflows(context: home.context, references: [], executable: "/bin/flow").load()
    #expect(loaded.workflows.map(\.name) == ["Digest"])
    let problem = try #require(loaded.problems.first)
    #expect(problem.leftOut)
    #expect(
      DiagnosticRenderer(colors: false).render(problem.diagnostics).contains(
        "error: '99999999999999999d' is too long for 'timeout': the longest duration is 366d"))
  }

  /// `flow schedule install`, `flow schedule next` and the scheduler look at one set of workflows: a
  /// scheduled file in ./workflows is in none of them, and the library's is in all three.
  @Test func theThreeScheduleCommandsAgreeOnWhatIsScheduled() async throws {
    let home = try Home()
    let local = home.root.appendingPathComponent("workflows")
    try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
    try home.write(Self.digest, to: local, "local-digest.yml")
    let environment = home.context.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
    func commands() async -> (install: String, next: String, scheduler: [String]) {
      let install = await Machine.run(
        ["schedule", "install", "cron", "--print"], in: home.root, environment: environment)
      let next = await Machine.run(["schedule", "next", "--count", "1"], in: home.root, environment: environment)
      let scheduler = SchedulerWorkflows(context: home.context, references: [], executable: "/bin/flow").load()
      return (install.output, next.output, scheduler.workflows.map { ($0.path as NSString).lastPathComponent })
    }
    let onlyLocal = await commands()
    #expect(!onlyLocal.install.contains("local-digest"), "\(onlyLocal.install)")
    #expect(onlyLocal.next == "")
    #expect(onlyLocal.scheduler == [])

    try home.write(Self.digest, to: home.library, "digest.yml")
    let withLibrary = await commands()
    #expect(withLibrary.install.contains("/digest.yml"), "\(withLibrary.install)")
    #expect(!withLibrary.install.contains("local-digest"))
    #expect(withLibrary.next.hasPrefix(home.library.appendingPathComponent("digest.yml").path + ":\n"))
    #expect(withLibrary.scheduler == ["digest.yml"])
  }
}

/// Issue 16, item 14: every edit of a library file is read again, and the versions no longer loaded
/// are released: what the registry holds stays bounded however many reloads there are.
struct SchedulerReloadMemoryTests {
  @Test func reloadsDoNotAccumulateFiles() throws {
    let home = try SchedulerWorkflowsTests.Home()
    let source = SchedulerWorkflows(context: home.context, references: [], executable: "/usr/local/bin/flow")
    let steps = (0..<100).map { "  - show: \"step \($0) of a long workflow\"\n" }.joined()
    let path = home.library.appendingPathComponent("big.yml").path
    for edit in 0..<50 {
      try home.write(
        "flow: 1\nname: Big\nschedule: \"0 9 * * *\"\nsteps:\n\(steps)  - show: \"edit \(edit)\"\n", to: home.library,
        "big.yml")
      #expect(source.load().workflows.count == 1)
    }
    // Without release, all 50 versions would still be registered; with it, none is (the scheduler keeps
    // the text it runs, not the file).
    #expect(SourceFile.registered(matching: { $0.path == path }) == 0)
  }
}
