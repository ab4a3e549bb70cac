import FlowLibrary
import FlowSession
import FlowTestSupport
import Foundation
import Testing

/// `flow launcher`: desktop entries that pass `desktop-file-validate`, follow the library, and whose
/// `Exec` line (the real binary, no terminal) says how the run went in a notification on a private
/// desktop (dunst on a private bus under Xvfb).
struct LauncherCommandTests {
  static let validator = ReferenceTool(
    "desktop-file-validate", install: "apt-get install desktop-file-utils (Scripts/setup.sh)")

  /// A name, a description and phrases with every character the Desktop Entry Specification escapes.
  static let tidy = #"""
    flow: 1
    name: " Tidy \"my\" downloads; 50% \\ $HOME `now`"
    description: "Moves week-old downloads\nto the Trash"
    icon: trash
    color: orange
    phrases: ["tidy my downloads", "clean; up"]
    steps:
      - show: tidied
    """#

  static func machine(environment extra: [String: String] = [:]) throws -> Machine {
    let machine = try Machine { ["NO_COLOR": "1", "HOME": $0.path].merging(extra) { $1 } }
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    return machine
  }

  static func library(_ machine: Machine, _ name: String, _ text: String) throws {
    try text.write(to: machine.library.appendingPathComponent("\(name).yml"), atomically: true, encoding: .utf8)
  }

  static func entry(_ machine: Machine, _ name: String) -> URL {
    machine.home.appendingPathComponent(".local/share/applications/dev.flow.Flow.workflow.\(name).desktop")
  }

  /// `desktop-file-validate FILE` says nothing and exits 0.
  static func expectValid(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard let result = try validator.run([file.path], sourceLocation: sourceLocation) else { return }
    #expect(result.status == 0, sourceLocation: sourceLocation)
    #expect(result.output + result.error == "", sourceLocation: sourceLocation)
  }

  @Test func addWritesAnEntryThatValidates() async throws {
    let machine = try Self.machine()
    try Self.library(machine, "tidy", Self.tidy)
    let added = await machine.run(["launcher", "add", "tidy"])
    assertGolden(machine.transcript(added), named: "launcher/add.txt")
    let file = Self.entry(machine, "tidy")
    try Self.expectValid(file)
    let text = try String(contentsOf: file, encoding: .utf8)
    assertGolden(
      text.replacingOccurrences(of: SessionContext.current.executable, with: "$FLOW").replacingOccurrences(
        of: machine.home.path, with: "$HOME"
      )
      .replacing(#/X-Flow-File=\d+:\d+/#, with: "X-Flow-File=DEVICE:INODE"),
      named: "launcher/entry.desktop.txt")
    let icon = try String(
      contentsOf: machine.home.appendingPathComponent(".local/share/flow/launcher/tidy.svg"), encoding: .utf8)
    assertGolden(icon, named: "launcher/icon.svg.txt")
    let listed = await machine.run(["launcher", "list"])
    assertGolden(machine.transcript(listed), named: "launcher/list.txt")
  }

  /// The `Exec=` quoting of an executable whose path holds every reserved character, read back by the
  /// oracle.
  @Test func anExecutablePathThatNeedsQuotingValidates() throws {
    let machine = try Self.machine()
    try Self.library(machine, "tidy", Self.tidy)
    let paths = FlowPaths(environment: machine.environment)
    let entries = LauncherEntries(paths: paths, executable: #"/opt/my "flow" $1 `x` 100% \ (a);b/flow"#)
    let workflow = try #require(LauncherEntries.decode(machine.library.appendingPathComponent("tidy.yml")))
    try entries.write(workflow, name: "tidy", file: machine.library.appendingPathComponent("tidy.yml"))
    try Self.expectValid(entries.entryFile("tidy"))
    let exec = try #require(DesktopEntryFile.read(entries.entryFile("tidy"))?["Exec"])
    #expect(
      Self.arguments(ofExec: exec)
        == [#"/opt/my "flow" $1 `x` 100% \ (a);b/flow"#, "run", "--trigger", "launcher", "tidy"])
  }

  @Test func refusals() async throws {
    let machine = try Self.machine()
    try Self.library(machine, "tidy", Self.tidy)
    try Self.library(machine, "broken", "flow: 1\nsteps:\n  - no-such-action: 1\n")
    let missing = await machine.run(["launcher", "add", "tidi"])
    assertGolden(machine.transcript(missing), named: "launcher/add-not-in-library.txt")
    let broken = await machine.run(["launcher", "add", "broken"])
    assertGolden(machine.transcript(broken), named: "launcher/add-invalid.txt")
    let notThere = await machine.run(["launcher", "remove", "tidy"])
    assertGolden(machine.transcript(notThere), named: "launcher/remove-not-in-launcher.txt")
    #expect(!FileManager.default.fileExists(atPath: Self.entry(machine, "broken").path))
  }

  @Test func entriesFollowTheLibrary() async throws {
    let machine = try Self.machine()
    for name in ["tidy", "digest", "gone"] { try Self.library(machine, name, Self.tidy) }
    for name in ["tidy", "digest", "gone"] {
      let added = await machine.run(["launcher", "add", name])
      #expect(added.status == 0, "\(added.error)")
    }
    // Removed with the workflow.
    let removed = await machine.run(["remove", "gone"])
    #expect(removed.error == "removed 'gone' from the launcher\n")
    #expect(!FileManager.default.fileExists(atPath: Self.entry(machine, "gone").path))
    // Updated when the workflow changes, renamed with its file.
    try Self.library(machine, "tidy", "flow: 1\nname: Tidy up\ncolor: blue\nsteps:\n  - show: tidied\n")
    try FileManager.default.moveItem(
      at: machine.library.appendingPathComponent("digest.yml"), to: machine.library.appendingPathComponent("news.yml"))
    let listed = await machine.run(["launcher", "list"])
    assertGolden(machine.transcript(listed), named: "launcher/follow.txt")
    try Self.expectValid(Self.entry(machine, "news"))
    #expect(!FileManager.default.fileExists(atPath: Self.entry(machine, "digest").path))
    #expect(try DesktopEntryFile.read(Self.entry(machine, "tidy"))?["Name"] == "Tidy up")
    #expect(try DesktopEntryFile.read(Self.entry(machine, "news"))?["Exec"]?.hasSuffix(" news") == true)
    // Nothing changed: nothing is written again.
    let modified = try FileManager.default.attributesOfItem(atPath: Self.entry(machine, "tidy").path)[.modificationDate]
    let again = await machine.run(["launcher", "list"])
    #expect(again.error == "")
    #expect(
      try FileManager.default.attributesOfItem(atPath: Self.entry(machine, "tidy").path)[.modificationDate] as? Date
        == modified as? Date)
    // Replaced by an import: the entry shows the new workflow.
    try machine.write("new-tidy.yml", "flow: 1\nname: Tidy everything\nsteps:\n  - show: tidied\n")
    let imported = await machine.run(["import", "new-tidy.yml", "--as", "tidy", "--replace", "--yes"])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(imported.error.hasSuffix("its launcher entry is up to date\n"), "\(imported.error)")
    #expect(try DesktopEntryFile.read(Self.entry(machine, "tidy"))?["Name"] == "Tidy everything")
    // The other entries stay.
    #expect(FileManager.default.fileExists(atPath: Self.entry(machine, "news").path))
  }

  // MARK: - Running the entry

  /// The arguments an `Exec=` value runs, read as the specification says: the string's escapes, then
  /// double quotes with `\"` `` \` `` `\$` `\\` inside, and `%%`.
  static func arguments(ofExec value: String) -> [String] {
    var arguments: [String] = []
    var current = ""
    var (quoted, escaped, started) = (false, false, false)
    for character in value {
      if escaped {
        current.append(character)
        escaped = false
      } else if quoted, character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " ", !quoted {
        if started || !current.isEmpty { arguments.append(current) }
        (current, started) = ("", false)
      } else {
        current.append(character)
      }
    }
    if started || !current.isEmpty { arguments.append(current) }
    return arguments.map { $0.replacingOccurrences(of: "%%", with: "%") }
  }

  /// Adds `name` with the real binary (so that `Exec=` names it), runs the entry's `Exec=` line as a
  /// launcher does (no terminal: every stream is /dev/null) to its end, and returns its status and the
  /// notification dunst got, as summary and body.
  /// `dialog`: the title of a dialog the run opens, answered by typing `answer` and Return (xdotool).
  static func launch(
    _ name: String, workflow: String, id: String, dialog: (title: String, answer: String)? = nil
  ) throws -> (
    status: Int32, notification: String, machine: Machine
  )? {
    guard let desktop = try PrivateDesktop.start() else { return nil }
    defer { desktop.stop() }
    let machine = try Self.machine(environment: desktop.environment.merging(["XDG_CURRENT_DESKTOP": "GNOME"]) { $1 })
    try Self.library(machine, name, workflow)
    #expect(try machine.runBinary(["launcher", "add", name]) == 0)
    try Self.expectValid(Self.entry(machine, name))
    let exec = try #require(DesktopEntryFile.read(Self.entry(machine, name))?["Exec"])
    let arguments = Self.arguments(ofExec: exec)
    #expect(arguments.first == Machine.executable.path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.environment = machine.environment(["FLOW_RUN_ID": id])
    process.currentDirectoryURL = machine.home
    (process.standardInput, process.standardOutput, process.standardError) =
      (FileHandle.nullDevice, FileHandle.nullDevice, FileHandle.nullDevice)
    try process.run()
    // A failed expectation throws: the run goes with the test.
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    if let dialog {
      // `--sync` waits for the window to be mapped; `timeout` bounds a failure.
      _ = try desktop.run("timeout", ["30", "xdotool", "search", "--sync", "--onlyvisible", "--name", dialog.title])
      _ = try desktop.run("xdotool", ["type", "--delay", "0", dialog.answer])
      _ = try desktop.run("xdotool", ["key", "Return"])
    }
    process.waitUntilExit()
    _ = try desktop.run("dunstctl", ["close-all"])
    let history = try desktop.run("dunstctl", ["history"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any])
    let entries = try #require((json["data"] as? [[[String: Any]]])?.first)
    let shown = entries.map { entry in
      let field = { (key: String) in ((entry[key] as? [String: Any])?["data"] as? String) ?? "" }
      return "summary: \(field("summary"))\nbody: \(field("body"))\n"
    }
    return (process.terminationStatus, shown.joined(separator: "---\n"), machine)
  }

  @Test func theEntryNotifiesWhatTheRunShowed() async throws {
    let workflow = """
      flow: 1
      name: Greet
      steps:
        - show: Hello from the launcher
        - stop: 42
      """
    guard let (status, notification, machine) = try Self.launch("greet", workflow: workflow, id: "launch-ok") else {
      return
    }
    #expect(status == 0)
    assertGolden(notification, named: "launcher/notify-success.txt")
    let runs = await machine.run(["runs", "show", "launch-ok"])
    #expect(runs.output.contains("trigger   launcher"), "\(runs.output)")
  }

  /// Issue 31's "done when": an entry for a workflow that asks validates, asks in a desktop dialog (the
  /// run has no terminal), and notifies what the run showed.
  @Test func anEntryWhoseWorkflowAsksAsksInADialogAndNotifies() async throws {
    let workflow = """
      flow: 1
      name: Greet Me
      steps:
        - ask: What is your name?
          as: who
        - show: Hello, ${who}!
      """
    guard
      let (status, notification, _) = try Self.launch(
        "greet-me", workflow: workflow, id: "launch-ask", dialog: ("Greet Me", "Ada"))
    else { return }
    #expect(status == 0)
    #expect(notification.contains("Hello, Ada!"), "\(notification)")
  }

  @Test func aFailureNotifiesTheErrorAndTheRunsShowLine() async throws {
    let workflow = """
      flow: 1
      name: Parse
      steps:
        - parse-json: "{not json"
      """
    let id = "0a1b2c3d-0000-4000-8000-000000000001"
    guard let (status, notification, machine) = try Self.launch("parse", workflow: workflow, id: id) else { return }
    #expect(status == 1)
    assertGolden(notification, named: "launcher/notify-failure.txt")
    #expect(notification.contains("flow runs show 0a1b2c3d\n"))
    let runs = await machine.run(["runs", "show", "0a1b2c3d"])
    #expect(runs.status == 0, "\(runs.error)")
  }
}
