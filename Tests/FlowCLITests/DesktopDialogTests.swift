import CLinux
import FlowTestSupport
import Foundation
import Testing

/// A run with no terminal but a desktop session asks in dialogs (SPEC §11): the real `flow` binary,
/// with no terminal at all, under Xvfb with a private session bus, its dialogs answered by xdotool.
/// Each test waits for the dialog's window (`xdotool search --sync`) before it types, and for the
/// dialog's process to end (a pidfd) before it waits for the next one.
@Suite(.serialized) struct DesktopDialogTests {
  static let xdotool = ReferenceTool("xdotool", install: "apt-get install xdotool (Scripts/setup.sh)")

  /// A private desktop, a machine, and the one dialog tool the run finds: a `PATH` of a folder
  /// holding that tool alone.
  struct Session {
    let desktop: PrivateDesktop
    let machine: Machine
    let environment: [String: String]

    init?(tool: String = "zenity") throws {
      guard let desktop = try PrivateDesktop.start(), DesktopDialogTests.xdotool.path() != nil else { return nil }
      self.desktop = desktop
      machine = try Machine()
      var environment = desktop.environment.merging(["HOME": machine.home.path, "NO_COLOR": "1"]) { $1 }
      environment["XDG_CURRENT_DESKTOP"] = "GNOME"
      do {
        let bin = machine.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
          atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "/usr/bin/\(tool)")
        environment["PATH"] = bin.path
      }
      self.environment = environment
    }

    /// Starts `flow run FILE` with no terminal: standard input from /dev/null, both outputs to pipes.
    func start(_ file: String, id: String) throws -> Running {
      let (output, error) = (Pipe(), Pipe())
      var environment = self.environment
      environment["FLOW_RUN_ID"] = id
      let process = Process()
      process.executableURL = Machine.executable
      process.arguments = ["run", file]
      process.environment = environment
      process.currentDirectoryURL = machine.directory
      (process.standardInput, process.standardOutput, process.standardError) =
        (FileHandle.nullDevice, output, error)
      try process.run()
      return Running(process: process, output: output, error: error)
    }

    /// Waits for the dialog window titled `title`, then sends `keys` (`type:TEXT` types TEXT), and
    /// waits for the dialog's process to end.
    func answer(_ title: String, _ keys: [String]) throws {
      let found = try #require(
        try ReferenceTool("timeout", install: "coreutils").run(
          ["30", "xdotool", "search", "--sync", "--onlyvisible", "--name", title], environment: desktop.environment))
      let window = try #require(found.output.split(separator: "\n").first.map(String.init), "no window '\(title)'")
      let pid = try #require(
        Int32(try desktop.run("xdotool", ["getwindowpid", window]).trimmingCharacters(in: .whitespacesAndNewlines)))
      let exited = try ProcessExit(pid)
      for key in keys {
        if key.hasPrefix("type:") {
          _ = try desktop.run("xdotool", ["type", "--delay", "0", String(key.dropFirst(5))])
        } else {
          _ = try desktop.run("xdotool", ["key", key])
        }
      }
      try exited.wait(within: .seconds(30))
    }

    func stop() { desktop.stop() }
  }

  /// flow as it runs, and its end within a deadline that only bounds a failure.
  struct Running {
    let process: Process
    let output: Pipe
    let error: Pipe

    func finish() throws -> (status: Int32, output: String, error: String) {
      let exited = try ProcessExit(process.processIdentifier)
      try exited.wait(within: .seconds(60))
      process.waitUntilExit()
      let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return (process.terminationStatus, out, err)
    }
  }

  static let cups = """
    flow: 1
    name: Cups
    steps:
      - ask:
          prompt: How many cups?
          type: number
        as: cups
      - show: ${cups} cups

    """

  @Test func aNumberIsAskedAgainWithTheReasonUntilItFits() throws {
    guard let session = try Session() else { return }
    defer { session.stop() }
    try session.machine.write("cups.yml", Self.cups)
    let run = try session.start("cups.yml", id: "cups-1")
    defer { if run.process.isRunning { run.process.terminate() } }
    try session.answer("Cups", ["type:lots", "Return"])
    try session.answer("Cups", ["type:3", "Return"])
    let result = try run.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "3 cups\n")
  }

  @Test func cancelCancelsTheRunAndIsRecorded() async throws {
    guard let session = try Session() else { return }
    defer { session.stop() }
    try session.machine.write("cups.yml", Self.cups)
    let run = try session.start("cups.yml", id: "cups-cancel")
    defer { if run.process.isRunning { run.process.terminate() } }
    try session.answer("Cups", ["Escape"])
    let result = try run.finish()
    #expect(result.status == 3, "\(result.error)")
    #expect(result.output == "")
    let shown = await session.machine.run(["runs", "show", "cups-cancel"])
    #expect(shown.output.contains("cancelled"), "\(shown.output)")
  }

  @Test func severalAreChosenFromAList() throws {
    guard let session = try Session() else { return }
    defer { session.stop() }
    try session.machine.write(
      "fruit.yml",
      """
      flow: 1
      name: Fruit
      steps:
        - choose-from-list:
            list: [apple, banana, cherry]
            prompt: Which fruit?
            select-multiple: true
        - show: ${previous}

      """)
    let run = try session.start("fruit.yml", id: "fruit-1")
    defer { if run.process.isRunning { run.process.terminate() } }
    // The first row, then the third added (Ctrl+Space), then OK (two Tabs from the list).
    try session.answer("Fruit", ["Down", "ctrl+Down", "ctrl+Down", "ctrl+space", "Tab", "Tab", "Return"])
    let result = try run.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "apple\ncherry\n")
  }

  /// A file deleted for good is confirmed in a warning whose Cancel has the focus: Return cancels,
  /// and the file stays.
  @Test func aDestructiveConfirmationDefaultsToCancel() throws {
    guard let session = try Session() else { return }
    defer { session.stop() }
    let file = session.machine.directory.appendingPathComponent("old.txt")
    try "old".write(to: file, atomically: true, encoding: .utf8)
    try session.machine.write(
      "purge.yml",
      """
      flow: 1
      name: Purge
      steps:
        - delete-files:
            files: \(file.path)
            permanently: true

      """)
    let run = try session.start("purge.yml", id: "purge-1")
    defer { if run.process.isRunning { run.process.terminate() } }
    try session.answer("Purge", ["Return"])
    let result = try run.finish()
    #expect(result.status == 3, "\(result.error)")
    #expect(FileManager.default.fileExists(atPath: file.path))
  }

  /// yad, found when zenity is not: a secret input typed in a masked field reaches the run.
  @Test func aSecretIsTypedInAMaskedFieldOfYad() throws {
    guard let session = try Session(tool: "yad") else { return }
    defer { session.stop() }
    try session.machine.write(
      "pin.yml",
      """
      flow: 1
      name: Pin
      input:
        pin:
          type: text
          secret: true
          prompt: Your PIN?
      steps:
        - show: pin ${input.pin}

      """)
    let run = try session.start("pin.yml", id: "pin-1")
    defer { if run.process.isRunning { run.process.terminate() } }
    try session.answer("Pin", ["type:s3cret", "Return"])
    let result = try run.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "pin s3cret\n")
  }
}

/// A process's end, through a pidfd: waited for with `poll`, within a deadline that only bounds a
/// failure.
struct ProcessExit {
  let descriptor: Int32

  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  /// -1 when the process has ended and been reaped already.
  init(_ pid: Int32) throws {
    descriptor = clinux_pidfd_open(pid)
    guard descriptor >= 0 || errno == ESRCH else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  func wait(within deadline: Duration) throws {
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    var ready: Int32
    repeat {
      ready = poll(&entry, 1, Int32(deadline.components.seconds * 1000))
    } while ready < 0 && errno == EINTR
    guard ready > 0 else { throw Timeout(description: "the process did not end within \(deadline)") }
  }
}

/// What a run in a desktop session does without a dialog, in-process (no display is reached).
struct DesktopWithoutDialogTests {
  /// A display and a bus, but no dialog tool on the `PATH`: a value cannot be asked, and the refusal
  /// before step 1 names the package.
  @Test func noDialogToolNamesThePackage() async throws {
    let machine = try Machine()
    try machine.write("cups.yml", DesktopDialogTests.cups)
    let empty = machine.home.appendingPathComponent("empty-bin")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let result = await machine.run(
      ["run", "cups.yml"],
      environment: [
        "DISPLAY": ":99", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "PATH": empty.path,
        "XDG_CURRENT_DESKTOP": "GNOME",
      ])
    #expect(result.status == 4)
    assertGolden(machine.transcript(result), named: "run/desktop-without-a-dialog-tool.txt")
  }

  /// `--no-input` never asks, whatever the desktop: the display here does not exist, so a dialog would
  /// fail rather than refuse before step 1.
  @Test func noInputNeverAsks() async throws {
    let machine = try Machine()
    try machine.write("cups.yml", DesktopDialogTests.cups)
    let result = await machine.run(
      ["run", "cups.yml", "--no-input"],
      environment: [
        "DISPLAY": ":99", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus",
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      ])
    #expect(result.status == 4)
    #expect(result.error.contains("step 1 'ask' needs an answer"), "\(result.error)")
  }
}

/// `ask` with `allow-multiple-lines` at a terminal: lines until an empty one.
struct MultilineAskTests {
  @Test func severalLinesEndWithAnEmptyOne() async throws {
    let folder = try temporaryDirectory()
    try """
    flow: 1
    name: Notes
    steps:
      - ask:
          prompt: Notes?
          allow-multiple-lines: true
      - show: "[${previous}]"
    """.write(to: folder.appendingPathComponent("notes.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(
      ["run", "notes.yml"], in: folder, terminal: true, lines: ["first", "second", "", "never read"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "[first\nsecond]\n")
    #expect(result.error.hasPrefix("Notes? (end with an empty line):\n"), "\(result.error)")
  }
}
