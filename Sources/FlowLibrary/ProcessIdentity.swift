import FoundationEssentials
import Glibc

/// Which process on which boot: what a run row keeps so that a later reader can tell a run still going
/// from one whose process died (kill -9, a crash, power loss).
///
/// A pid alone is not enough: pids are reused, and after a reboot they start again. The boot id
/// (`/proc/sys/kernel/random/boot_id`) changes on every boot, and the process's start time (in clock
/// ticks since boot, from `/proc/PID/stat`) tells a reused pid from the original.
public struct ProcessIdentity: Sendable, Hashable {
  public var pid: Int32
  public var bootID: String
  public var startTime: UInt64

  public init(pid: Int32, bootID: String, startTime: UInt64) {
    self.pid = pid
    self.bootID = bootID
    self.startTime = startTime
  }
}

/// Asks the system about processes; the effect behind run history's "interrupted".
public protocol ProcessInspector: Sendable {
  /// This process.
  func current() -> ProcessIdentity
  /// Whether the process is still running: same boot, and the pid is alive with the same start time.
  func isRunning(_ process: ProcessIdentity) -> Bool
}

/// The real system, through `/proc`.
public struct LinuxProcesses: ProcessInspector {
  public init() {}

  public func current() -> ProcessIdentity {
    let pid = getpid()
    return ProcessIdentity(pid: pid, bootID: Self.bootID(), startTime: Self.startTime(of: pid) ?? 0)
  }

  public func isRunning(_ process: ProcessIdentity) -> Bool {
    guard process.bootID == Self.bootID() else { return false }
    guard let started = Self.startTime(of: process.pid) else { return false }
    return started == process.startTime
  }

  private static func bootID() -> String {
    guard var bytes = read("/proc/sys/kernel/random/boot_id") else { return "" }
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Field 22 of `/proc/PID/stat`, counted after the command name, which may itself hold spaces and
  /// parentheses (so the fields start after the last ')'). Nil when there is no such process, or only
  /// its corpse (a zombie, dead but not yet reaped by its parent).
  ///
  /// Read as bytes: split as `Character`s, the line's 300 characters cost 230,000 instructions, 4% of
  /// a one-step run.
  static func startTime(of pid: Int32) -> UInt64? {
    guard let bytes = read("/proc/\(pid)/stat"), let close = bytes.lastIndex(of: UInt8(ascii: ")")) else {
      return nil
    }
    let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
    // After ')': the state is field 3, the first here, so the start time (field 22) is the 20th.
    guard fields.count > 19, fields[0] != [UInt8(ascii: "Z")], fields[0] != [UInt8(ascii: "X")] else { return nil }
    return UInt64(String(decoding: fields[19], as: UTF8.self))
  }

  /// A small file of /proc, read with one call: these are read on every run.
  private static func read(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    buffer.removeLast(buffer.count - count)
    return buffer
  }
}
