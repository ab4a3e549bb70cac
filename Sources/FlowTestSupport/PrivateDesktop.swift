import Foundation
import Synchronization
import Testing

/// A private desktop: an X server (Xvfb, through `xvfb-run`) and a D-Bus session bus on it, whose
/// notification service is dunst, started by the bus on the first call (D-Bus activation of the
/// `org.freedesktop.Notifications` service file dunst installs). Everything runs in a process group of
/// its own (Foundation starts a child as a group leader), ended as a whole when the test is done.
///
/// dunst is configured to press a button by itself: a rule runs `dunstctl context` as each notification
/// appears, and its "dmenu" is a script that picks the line of the button it was told to press.
public final class PrivateDesktop: @unchecked Sendable {
  public let display: String
  /// The X server's cookie file, which xvfb-run makes: X clients need it to connect.
  public let authority: String
  public let busAddress: String
  public let directory: URL
  private let process: Process

  public static let tools = [
    ReferenceTool("xvfb-run", install: "apt-get install xvfb (Scripts/setup.sh)"),
    ReferenceTool("dbus-daemon", install: "apt-get install dbus (Scripts/setup.sh)"),
    ReferenceTool("dunst", install: "apt-get install dunst (Scripts/setup.sh)"),
    ReferenceTool("dunstctl", install: "apt-get install dunst (Scripts/setup.sh)"),
    ReferenceTool("xclip", install: "apt-get install xclip (Scripts/setup.sh)"),
  ]

  /// Starts it; nil (with a recorded issue naming the package) when a tool is missing. dunst presses
  /// `button` on each notification whose summary is `pressing`.
  public static func start(
    services: Bool = true, pressing summary: String = "Press a button", button: String = "Snooze"
  ) throws -> PrivateDesktop? {
    guard tools.allSatisfy({ $0.path() != nil }) else { return nil }
    return try PrivateDesktop(services: services, pressing: summary, button: button)
  }

  private init(services: Bool, pressing summary: String, button: String) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-desktop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let config = directory.appendingPathComponent("dunst")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    let pick = directory.appendingPathComponent("pick.sh")
    // Quoted for sh: a label may hold an apostrophe (Don't Run).
    let quoted = { (text: String) in text.replacingOccurrences(of: "'", with: "'\\''") }
    try "#!/bin/sh\ngrep -m1 '^#\(quoted(button)) ' || true\n".write(to: pick, atomically: true, encoding: .utf8)
    let press = directory.appendingPathComponent("press.sh")
    try "#!/bin/sh\n[ \"$2\" = '\(quoted(summary))' ] && exec dunstctl context\nexit 0\n".write(
      to: press, atomically: true, encoding: .utf8)
    for script in [pick, press] {
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }
    try """
    [global]
        dmenu = \(pick.path)
    [press]
        summary = "*"
        script = \(press.path)
    """.write(to: config.appendingPathComponent("dunstrc"), atomically: true, encoding: .utf8)
    // A bus with no service directory at all stands for a session without a notification server.
    let busConfig = directory.appendingPathComponent("bus.conf")
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:dir=\(directory.path)</listen>
      \(services ? "<standard_session_servicedirs/>" : "")
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
      </policy>
    </busconfig>
    """.write(to: busConfig, atomically: true, encoding: .utf8)

    process = Process()
    process.executableURL = URL(fileURLWithPath: PrivateDesktop.tools[0].path() ?? "/usr/bin/xvfb-run")
    // `-a` looks for a free display from `-n` on; starting every desktop at 99, as xvfb-run does, lets
    // two started at once (suites in parallel, other test runs) take the same one, and one fails.
    process.arguments = [
      "-a", "-n", String(Self.nextDisplay()), "sh", "-c",
      "echo \"$DISPLAY\"; echo \"$XAUTHORITY\"; exec dbus-daemon --config-file=\(busConfig.path) --nofork --print-address=1",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = directory.path
    environment["DBUS_SESSION_BUS_ADDRESS"] = nil
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Waits for the three lines (the display, its cookie file, then the bus's address, printed once it listens).
    var lines: [String] = []
    var buffer = Data()
    while lines.count < 3 {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      buffer.append(chunk)
      lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    // Foundation starts the child as the leader of a process group of its own: that group is ended at the end.
    guard getpgid(process.processIdentifier) == process.processIdentifier else {
      process.terminate()
      throw DesktopError("xvfb-run is not in a process group of its own")
    }
    guard lines.count >= 3 else {
      kill(-process.processIdentifier, SIGTERM)
      throw DesktopError("the private desktop did not start (got \(lines))")
    }
    display = lines[0]
    authority = lines[1]
    busAddress = lines[2]
  }

  /// Where this desktop's search for a free display starts: apart for each process and each desktop
  /// it starts.
  private static func nextDisplay() -> Int {
    let index = started.add(1, ordering: .relaxed).oldValue
    return 100 + Int(getpid() % 500) * 16 + index % 16
  }

  private static let started = Atomic<Int>(0)

  /// The environment a run in this desktop has.
  public var environment: [String: String] {
    [
      "DISPLAY": display, "XAUTHORITY": authority, "DBUS_SESSION_BUS_ADDRESS": busAddress,
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  /// Runs one of the desktop's tools (`dunstctl`, `xclip`) in it.
  public func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
    let result = try ReferenceTool(tool, install: "Scripts/setup.sh").run(
      arguments, input: input, environment: environment)
    return result?.output ?? ""
  }

  public func stop() {
    kill(-process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  struct DesktopError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
