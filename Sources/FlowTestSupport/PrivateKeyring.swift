import Foundation
import Testing

/// GNOME Keyring's Secret Service on a private session bus: `dbus-daemon` with no service folders, and
/// `gnome-keyring-daemon --unlock --components=secrets` on it, its login keyring made and unlocked with a
/// password given on standard input, in a home of its own. A shell script starts both and waits until
/// `org.freedesktop.secrets` is owned (`gdbus wait`); it and everything it starts are one process group
/// (Foundation starts a child as a group leader), ended as a whole by ``stop()``.
public final class PrivateKeyring: @unchecked Sendable {
  public let busAddress: String
  public let directory: URL
  private let process: Process

  public static let tools = [
    ReferenceTool("dbus-daemon", install: "apt-get install dbus (Scripts/setup.sh)"),
    ReferenceTool("gnome-keyring-daemon", install: "apt-get install gnome-keyring (Scripts/setup.sh)"),
    ReferenceTool("secret-tool", install: "apt-get install libsecret-tools (Scripts/setup.sh)"),
    ReferenceTool("gdbus", install: "apt-get install libglib2.0-bin (Scripts/setup.sh)"),
  ]

  /// Starts it; nil (with a recorded issue naming the package) when a tool is missing.
  /// `withKeyring: false` starts the bus alone: a session where nothing provides the Secret Service.
  public static func start(withKeyring: Bool = true) throws -> PrivateKeyring? {
    guard tools.allSatisfy({ $0.path() != nil }) else { return nil }
    return try PrivateKeyring(withKeyring: withKeyring)
  }

  private init(withKeyring: Bool) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-keyring-\(UUID().uuidString)")
    for folder in ["home", "data", "run"] {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let busConfig = directory.appendingPathComponent("bus.conf")
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:dir=\(directory.path)</listen>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
      </policy>
    </busconfig>
    """.write(to: busConfig, atomically: true, encoding: .utf8)
    let script = """
      set -e
      mkfifo "$D/address"
      dbus-daemon --config-file="$D/bus.conf" --nofork --print-address=1 >"$D/address" 2>/dev/null &
      read -r address <"$D/address"
      export DBUS_SESSION_BUS_ADDRESS="$address"
      if [ "$KEYRING" = yes ]; then
        # The parent returns once the daemon is set up; it stays in this process group.
        printf %s keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        gdbus wait --session --timeout 20 org.freedesktop.secrets
      fi
      echo "$address"
      wait
      """
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    var environment = ProcessInfo.processInfo.environment
    environment["D"] = directory.path
    environment["KEYRING"] = withKeyring ? "yes" : "no"
    environment["HOME"] = directory.appendingPathComponent("home").path
    environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
    environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("run").path
    environment["DBUS_SESSION_BUS_ADDRESS"] = nil
    environment["DISPLAY"] = nil
    environment["WAYLAND_DISPLAY"] = nil
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var buffer = Data()
    while !buffer.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      buffer.append(chunk)
    }
    guard let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first, line.hasPrefix("unix:")
    else {
      kill(-process.processIdentifier, SIGTERM)
      process.waitUntilExit()
      throw KeyringError("the private keyring did not start")
    }
    busAddress = String(line)
  }

  /// The environment of a process that uses this keyring (and no desktop to prompt on).
  public var environment: [String: String] {
    [
      "DBUS_SESSION_BUS_ADDRESS": busAddress, "HOME": directory.appendingPathComponent("home").path,
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  /// Runs `secret-tool` (or `gdbus`) against this keyring: its status and standard output.
  public func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String)
  {
    let result = try ReferenceTool(tool, install: "Scripts/setup.sh").run(
      arguments, input: input, environment: environment)
    return (result?.status ?? -1, result?.output ?? "")
  }

  /// Locks the login keyring, as the desktop does when the screen locks or the session ends: unlocking it
  /// again needs its password typed in a prompt.
  public func lock() throws {
    _ = try run(
      "gdbus",
      [
        "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
        "--method", "org.freedesktop.Secret.Service.Lock", "['/org/freedesktop/secrets/collection/login']",
      ])
  }

  public func stop() {
    kill(-process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: directory)
  }

  struct KeyringError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
