import FoundationEssentials
import Glibc
import Synchronization

/// Watches the folders of `file` triggers with inotify, for `flow schedule`: one non-blocking inotify
/// descriptor for every trigger, read in the scheduler's one `poll` (``RealtimeClock/watch(_:readable:)``)
/// on its thread, without Dispatch or Swift concurrency. What fires is handed to `report`, one batch per
/// read of the kernel's queue, in the kernel's order; what cannot be watched goes to `problem`.
///
/// A file counts once it is complete: when its writer closes it (`IN_CLOSE_WRITE`) or it is renamed in
/// (`IN_MOVED_TO`), never at `IN_CREATE` or `IN_MODIFY`, when it may be half written. Hidden names and
/// the temporary names of editors and browsers never fire (``ignores(_:)``): a download that lands as
/// `x.pdf.part` and is renamed to `x.pdf` fires once, for `x.pdf`.
///
/// Nothing is lost silently, nothing is said twice. The watcher keeps, per folder, what it has seen of
/// each file (inode, modification time, size): arming records what is there without reporting it, and
/// where the kernel cannot have said everything, a scan compares the folder with what was seen:
/// - a subfolder that appears under a recursive trigger is watched, then listed: a file that landed
///   before the watch is reported as created by the listing, and one that landed after by its event
///   (an event that finds the file as the listing did is the listing's, and is not reported again);
/// - `IN_Q_OVERFLOW` (the kernel's queue was full and events were dropped) rescans every watched folder
///   and reports every file that appeared, changed or went since it was last seen;
/// - a folder that does not exist yet is said once (``WatchProblem/Reason/missing``), and awaited: the
///   nearest folder above it that exists is watched for new subfolders, and the triggers are armed when
///   it appears, its files reported as created.
///
/// A watched folder that is deleted or moved away is said (``WatchProblem/Reason/gone``) and is watched
/// again only by the next ``arm(_:)``, when the workflows are read again. A subfolder of a recursive
/// trigger that is renamed is a folder that went (its files deleted) and one that came (created). Hidden
/// subfolders (`.git`) are not descended. Two paths to one folder (a link) share its kernel watch, and
/// events are reported under the first path armed.
///
/// The clock keeps the descriptor for as long as it lives: make one watcher per clock and keep it, and
/// call ``arm(_:)`` whenever the triggers change.
public final class FileTriggerWatcher: FileTriggerSource, Sendable {
  private let descriptor: Int32
  private let state: Mutex<WatchedFolders>
  private let report: @Sendable ([FileEvent]) -> Void
  private let problem: @Sendable (WatchProblem) -> Void

  /// Opens the inotify descriptor and has `clock` read it. `report` and `problem` are called on the
  /// clock's thread, inside ``RealtimeClock/wait(until:)`` (and inside ``arm(_:)`` for problems), outside
  /// the watcher's lock: they may arm it again.
  public init(
    clock: RealtimeClock, report: @escaping @Sendable ([FileEvent]) -> Void,
    problem: @escaping @Sendable (WatchProblem) -> Void
  ) throws(LaunchFailure) {
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else {
      throw LaunchFailure("cannot watch the file triggers' folders (inotify): \(String(cString: strerror(errno)))")
    }
    state = Mutex(WatchedFolders(descriptor: descriptor))
    self.report = report
    self.problem = problem
    clock.watch(descriptor) { [weak self] in self?.drain() }
  }

  deinit { close(descriptor) }

  /// Watches `watches` from now on, instead of those armed before. A folder still wanted keeps its
  /// kernel watch and what was seen in it, so nothing that happens meanwhile is missed or said twice; a
  /// folder newly armed has its files recorded, not reported (they were there before the trigger). What
  /// cannot be watched is said to `problem` before this returns.
  public func arm(_ watches: [FileWatch]) {
    deliver(
      state.withLock { state in
        state.arm(watches)
        return state.take()
      })
  }

  /// Reads every event waiting (until the queue is empty, or 1 MiB at a time) and reports what they
  /// fire. The clock calls it when the descriptor can be read; calling it when nothing is waiting does
  /// nothing.
  public func drain() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let found = state.withLock { state in
      for _ in 0..<16 {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }  // EAGAIN: empty
        state.handle(buffer.withUnsafeBytes { InotifyRecord.parse(UnsafeRawBufferPointer(rebasing: $0[..<count])) })
      }
      return state.take()
    }
    deliver(found)
  }

  /// Acts on `bytes` as if read from the kernel (records in `struct inotify_event`'s layout) and reports
  /// what they fire: how tests give the watcher what the kernel will not do on demand, `IN_Q_OVERFLOW`.
  func receive(_ bytes: [UInt8]) {
    deliver(
      state.withLock { state in
        state.handle(InotifyRecord.parse(bytes))
        return state.take()
      })
  }

  /// What is watched now, for tests: every kernel watch's folder, and the folders awaited.
  var watchedFolders: (folders: [String], pending: [String]) {
    state.withLock { ($0.folders.values.map(\.path).sorted(), $0.pending.sorted()) }
  }

  private func deliver(_ found: (events: [FileEvent], problems: [WatchProblem])) {
    if !found.events.isEmpty { report(found.events) }
    for problem in found.problems { self.problem(problem) }
  }

  /// Whether a file's name never fires: hidden names (a leading `.`, which covers vim's `.x.swp`,
  /// LibreOffice's `.~lock.x#` and rsync's `.x.AbCdEf`) and what editors and downloads are written as
  /// before they are whole or after they are superseded: a trailing `~` (backups), `.part` (Firefox,
  /// wget2, KIO), `.crdownload` (Chromium) and `.tmp`. Such files are not even recorded, so the rename
  /// that completes them is a file appearing.
  public static func ignores(_ name: String) -> Bool {
    name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".part") || name.hasSuffix(".crdownload")
      || name.hasSuffix(".tmp")
  }
}
