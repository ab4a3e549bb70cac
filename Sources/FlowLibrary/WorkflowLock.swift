import FlowIntents
import FlowSQLite
import FoundationEssentials
import Glibc

/// The per-workflow lock that keeps a workflow from running twice at once, whoever starts it: `flow run`
/// by hand, a cron line, a systemd timer, the scheduler.
///
/// An exclusive `flock` on a file in ``FlowPaths/locks`` named after the workflow's file and a hash of
/// its absolute path (`save-and-tag-3f2a9c1e04b7.lock`), held for the whole run and released by the
/// kernel however the process ends, so a killed run never leaves a stale lock. The holder writes who it
/// is into the file (pid, run id, start), so that the one refused can say which run it is waiting for,
/// and ``holder(of:in:processes:)`` answers "is it running?" without touching the lock itself: a probe
/// that took the lock, even for an instant, could make a real run refuse to start.
public final class WorkflowLock: Sendable {
  /// Who holds a lock, as one line in the lock file: `pid start-time started-ms boot-id run-id` (the run
  /// id last, as it may hold spaces when given with `FLOW_RUN_ID`).
  public struct Holder: Sendable, Hashable {
    public var runID: String
    public var started: Date
    public var process: ProcessIdentity

    public init(runID: String, started: Date, process: ProcessIdentity) {
      self.runID = runID
      self.started = started
      self.process = process
    }

    /// The line written into the lock file. Plain text rather than JSON: it is written on every run.
    var line: String {
      "\(process.pid) \(process.startTime) \(started.millisecondsSince1970) \(process.bootID) \(runID)\n"
    }

    /// The holder the file's first line names; what follows it is ignored (see ``acquire``).
    init?(line: String) {
      let first = line.prefix { $0 != "\n" }
      let fields = first.split(separator: " ", maxSplits: 4)
      guard fields.count == 5, let pid = Int32(fields[0]), let startTime = UInt64(fields[1]),
        let milliseconds = Int64(fields[2])
      else { return nil }
      self.init(
        runID: String(fields[4]), started: Date(millisecondsSince1970: milliseconds),
        process: ProcessIdentity(pid: pid, bootID: String(fields[3]), startTime: startTime))
    }
  }

  /// The lock could not be taken for a reason other than another run holding it.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let file: URL
  private let descriptor: Int32

  private init(file: URL, descriptor: Int32) {
    self.file = file
    self.descriptor = descriptor
  }

  deinit { release() }

  /// The lock file of the workflow at `path` (absolute).
  public static func file(for path: String, in directory: URL) -> URL {
    // The file name without its extension, as text: `URL`'s path methods build a `Set<UInt8>` at every
    // call (FileSystemPath.swift). As `deletingPathExtension`: no extension in ".profile" or "name.".
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let stem =
      name.lastIndex(of: ".").flatMap { dot in
        dot == name.startIndex || name.index(after: dot) == name.endIndex ? nil : String(name[..<dot])
      } ?? name
    let safe = String(
      stem.unicodeScalars.prefix(64).map { scalar in
        scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar)
          || "-_.".unicodeScalars.contains(scalar)
          ? Character(scalar) : "_"
      })
    return directory.appending(
      path: "\(safe)-\(Digest.sha256Hex(Array(path.utf8)).prefix(12)).lock", directoryHint: .notDirectory)
  }

  /// Takes the lock of the workflow at `path`, waiting for the run that holds it when `wait` is true.
  /// Nil when another run holds it and `wait` is false.
  public static func acquire(path: String, in directory: URL, holder: Holder, wait: Bool) throws(Failure)
    -> WorkflowLock?
  {
    if let problem = PrivateFiles.createDirectory(directory) { throw Failure(description: problem) }
    let file = Self.file(for: path, in: directory)
    let descriptor = open(file.fileSystemPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot open \(file.fileSystemPath): \(String(cString: strerror(errno)))")
    }
    while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
      if errno == EINTR { continue }
      let reason = errno
      close(descriptor)
      if reason == EWOULDBLOCK { return nil }
      throw Failure(description: "cannot lock \(file.fileSystemPath): \(String(cString: strerror(reason)))")
    }
    let lock = WorkflowLock(file: file, descriptor: descriptor)
    // Written over what is there, never truncated: only the first line counts, and truncating a file
    // that holds data (here and at release) cost a run two journaled ext4 transactions: taking the lock
    // took 0.26 ms of a one-step run's wall time, and takes 0.08.
    let line = Array(holder.line.utf8)
    _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    return lock
  }

  /// Who holds the lock of the workflow at `path`, if a live process does: what the scheduler asks
  /// before it starts a run, to skip a fire while the last one is still going.
  public static func holder(
    of path: String, in directory: URL, processes: any ProcessInspector = LinuxProcesses()
  ) -> Holder? {
    guard let data = FileManager.default.contents(atPath: file(for: path, in: directory).path),
      let holder = Holder(line: String(decoding: data, as: UTF8.self)), processes.isRunning(holder.process)
    else { return nil }
    return holder
  }

  /// Whether a live run holds the lock of the workflow at `path`.
  public static func isHeld(_ path: String, in directory: URL, processes: any ProcessInspector = LinuxProcesses())
    -> Bool
  {
    holder(of: path, in: directory, processes: processes) != nil
  }

  /// Lets the next run in. The holder's record is ended first (an empty first line), so nobody reads a
  /// finished holder: a process that ran the workflow and lives on (`flow mcp`) would pass for it.
  private func release() {
    var newline = UInt8(ascii: "\n")
    _ = pwrite(descriptor, &newline, 1, 0)
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}

/// A run holding a workflow's lock.
public struct RunHolder: Sendable, Hashable {
  public var runID: String
  public var pid: Int32
  public var started: Date

  public init(runID: String, pid: Int32, started: Date) {
    self.runID = runID
    self.pid = pid
    self.started = started
  }
}

extension RunHolder {
  /// Who holds a workflow's lock, as the scheduler and the refusal message name it.
  public init(_ holder: WorkflowLock.Holder) {
    self.init(runID: holder.runID, pid: holder.process.pid, started: holder.started)
  }
}
