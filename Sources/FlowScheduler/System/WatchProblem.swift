import FoundationEssentials

/// Why a watched folder is not (or no longer) watched, so that a trigger that cannot fire is said, by
/// name, rather than silently never firing. The integrator words it for the person; ``description`` is
/// a plain default for a log.
public struct WatchProblem: Sendable, Hashable, CustomStringConvertible {
  public enum Reason: Sendable, Hashable {
    /// The folder does not exist (yet). Said once, however often it is armed while missing; the watcher
    /// watches the nearest folder above it that exists, and arms the triggers when it appears.
    case missing
    /// The folder was deleted or moved away (or its file system unmounted) and is no longer watched.
    /// The next ``FileTriggerWatcher/arm(_:)`` arms it again if it is back.
    case gone
    /// `inotify_add_watch` failed with ENOSPC: the per-user watch limit, `fs.inotify.max_user_watches`,
    /// read from `/proc/sys/fs/inotify/max_user_watches` (nil if that cannot be read).
    case watchLimit(Int?)
    /// The path is not a folder.
    case notAFolder
    /// Another failure of `inotify_add_watch`, as `strerror` says it (permission denied, mostly).
    case failed(String)
  }

  /// The folder's absolute path: a watched folder, or a subfolder of a recursive one.
  public var folder: String
  /// The ``FileWatch/id``s of the triggers it concerns, in increasing order.
  public var watches: [Int]
  public var reason: Reason

  public init(folder: String, watches: [Int], reason: Reason) {
    self.folder = folder
    self.watches = watches
    self.reason = reason
  }

  public var description: String {
    switch reason {
    case .missing: "\(folder) does not exist; the trigger is armed when it does"
    case .gone: "\(folder) was deleted or moved away; the trigger is armed again when the workflows are read again"
    case .watchLimit(let limit):
      "cannot watch \(folder): the inotify watch limit is reached: fs.inotify.max_user_watches = "
        + "\(limit.map(String.init) ?? "?") (raise it with sysctl)"
    case .notAFolder: "cannot watch \(folder): it is not a folder"
    case .failed(let reason): "cannot watch \(folder): \(reason)"
    }
  }
}
