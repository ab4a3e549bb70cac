import FlowScheduler
import Foundation
import Synchronization
import Testing

/// A private system bus and session bus with stand-ins for the services flow's triggers watch
/// (Tests/BusStandIns/bus_standin.py: python-dbusmock's templates and generic objects), driven by commands
/// the script answers once done. The script and everything it starts run in a process group of their own
/// (Foundation starts a child as a group leader), ended as a whole at the end.
final class BusStandIn {
  private(set) var systemAddress = ""
  private(set) var sessionAddress = ""
  private let process: Process
  private let input: FileHandle
  private let output: FileHandle
  private var buffered = Data()

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("BusStandIns/bus_standin.py").path

  /// The system's python3 with python-dbusmock and dbus-python (Debian's python3-dbusmock, which
  /// Scripts/setup.sh installs), not the checkout's .venv-tools, which has neither; nil when none has them.
  static let python: String? = {
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

  init() throws {
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
  var environment: [String: String] {
    ["DBUS_SYSTEM_BUS_ADDRESS": systemAddress, "DBUS_SESSION_BUS_ADDRESS": sessionAddress]
  }

  /// Runs one command and returns what it answered after `ok`.
  @discardableResult
  func callAsFunction(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    input.write(Data((command + "\n").utf8))
    let answer = try nextLine()
    guard answer == "ok" || answer.hasPrefix("ok ") else { throw StandInError("\(command): \(answer)") }
    return String(answer.dropFirst(3))
  }

  func stop() {
    try? input.close()
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

/// ``MachineEventSources`` driven the way the scheduler's poll drives them, by the test itself: waiting
/// on its descriptor for what the test expects next, and reading when it can be read.
final class WatchedSources: Sendable {
  let sources: MachineEventSources
  private let inbox: Inbox

  final class Inbox: Sendable {
    let events = Mutex<[MachineEvent]>([])
    let reports = Mutex<[MachineSourceReport]>([])
  }

  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  init(
    _ set: Set<MachineSource>, environment: [String: String], appID: String? = nil,
    shortcuts: [HotkeyShortcut] = []
  ) throws {
    let inbox = Inbox()
    self.inbox = inbox
    sources = try MachineEventSources(
      set, environment: environment, appID: appID, shortcuts: shortcuts,
      events: { event in inbox.events.withLock { $0.append(event) } },
      reports: { report in inbox.reports.withLock { $0.append(report) } })
  }

  /// The next event, in order.
  func nextEvent(within limit: Duration = .seconds(60)) throws -> MachineEvent {
    let inbox = self.inbox
    try pump(until: { inbox.events.withLock { !$0.isEmpty } }, within: limit, "an event")
    return inbox.events.withLock { $0.removeFirst() }
  }

  /// The next report, in order.
  func nextReport(within limit: Duration = .seconds(60)) throws -> MachineSourceReport {
    let inbox = self.inbox
    try pump(until: { inbox.reports.withLock { !$0.isEmpty } }, within: limit, "a report")
    return inbox.reports.withLock { $0.removeFirst() }
  }

  /// What is waiting now, taken.
  var waitingEvents: [MachineEvent] {
    inbox.events.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }

  /// Reads until `condition` holds.
  func pump(until condition: () -> Bool, within limit: Duration = .seconds(60), _ what: String) throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw Timeout(description: "waited \(limit) for \(what)") }
      var descriptor = pollfd(fd: sources.descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, Int32(left.components.seconds * 1000 + 1))
      if descriptor.revents != 0 { sources.readable() }
    }
  }
}
