import Foundation
import Synchronization
import Testing

/// A private system bus and session bus with stand-ins for the services flow's triggers watch
/// (Tests/BusStandIns/bus_standin.py: python-dbusmock's templates and generic objects), driven by commands
/// the script answers once done. The script and everything it starts run in a process group of their own
/// (Foundation starts a child as a group leader), ended as a whole at the end.
public final class BusStandIn {
  public private(set) var systemAddress = ""
  public private(set) var sessionAddress = ""
  private let process: Process
  private let input: FileHandle
  private let output: FileHandle
  private var buffered = Data()

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../Tests/BusStandIns/bus_standin.py").standardizedFileURL.path

  /// The system's python3 with python-dbusmock and dbus-python (Debian's python3-dbusmock, which
  /// Scripts/setup.sh installs), not the checkout's .venv-tools, which has neither; nil when none has them.
  public static let python: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let candidates =
      ["/usr/bin/python3"] + path.split(separator: ":").filter { !$0.contains(".venv") }.map { "\($0)/python3" }
    return candidates.first { candidate in
      guard FileManager.default.isExecutableFile(atPath: candidate) else { return false }
      let check = Process()
      check.executableURL = URL(fileURLWithPath: candidate)
      check.arguments = ["-c", "import dbus, dbusmock"]
      check.standardOutput = FileHandle.nullDevice
      check.standardError = FileHandle.nullDevice
      guard (try? check.run()) != nil else { return false }
      check.waitUntilExit()
      return check.terminationStatus == 0
    }
  }()

  public init() throws {
    let python = try #require(Self.python, "python3-dbusmock is not installed (Scripts/setup.sh)")
    process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Self.script]
    let (stdin, stdout) = (Pipe(), Pipe())
    process.standardInput = stdin
    process.standardOutput = stdout
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading
    try process.run()
    var addresses: [String: String] = [:]
    while true {
      let line = try nextLine()
      if line == "ready" { break }
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2, parts[0] != "missing" else { throw StandInError("the stand-ins did not start: \(line)") }
      addresses[parts[0]] = parts[1]
    }
    systemAddress = try #require(addresses["system"])
    sessionAddress = try #require(addresses["session"])
  }

  /// The environment of a daemon on these buses.
  public var environment: [String: String] {
    ["DBUS_SYSTEM_BUS_ADDRESS": systemAddress, "DBUS_SESSION_BUS_ADDRESS": sessionAddress]
  }

  /// Runs one command and returns what it answered after `ok`.
  @discardableResult
  public func callAsFunction(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    input.write(Data((command + "\n").utf8))
    let answer = try nextLine()
    guard answer == "ok" || answer.hasPrefix("ok ") else { throw StandInError("\(command): \(answer)") }
    return String(answer.dropFirst(3))
  }

  public func stop() {
    try? input.close()
    // Not the end of its input alone: any child the test process started while that pipe was open holds
    // its writing end too (Foundation's pipes are inherited), and the stand-in would read on forever.
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    process.waitUntilExit()
    kill(-process.processIdentifier, SIGKILL)
  }

  private func nextLine() throws -> String {
    while true {
      if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffered[buffered.startIndex..<end], as: UTF8.self)
        buffered.removeSubrange(buffered.startIndex...end)
        return line
      }
      let chunk = output.availableData
      guard !chunk.isEmpty else { throw StandInError("the stand-ins stopped") }
      buffered.append(chunk)
    }
  }

  struct StandInError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
