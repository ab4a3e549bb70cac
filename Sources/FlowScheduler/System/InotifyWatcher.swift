import FoundationEssentials
import Glibc
import Synchronization

/// Watches folders of workflow files with inotify: a change is a `.yml` or `.yaml` file (not hidden)
/// closed after writing, moved in or out, or deleted, or the folder itself going. Files being written
/// (`IN_MODIFY`, `IN_CREATE`) do not count until they are closed, so a half-written file is not read.
///
/// The inotify descriptor is read in the scheduler's poll (``RealtimeClock``).
public final class InotifyWatcher: LibraryWatcher, Sendable {
  private let descriptor: Int32
  /// The folders' watch descriptors, and what to call when one of their workflow files changes.
  private let state = Mutex<(watches: [Int32], changed: (@Sendable () -> Void)?)>(([], nil))

  static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)

  public init(clock: RealtimeClock) throws(LaunchFailure) {
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else {
      throw LaunchFailure("cannot watch the library (inotify): \(String(cString: strerror(errno)))")
    }
    clock.watch(descriptor) { [weak self] in self?.drain() }
  }

  deinit { close(descriptor) }

  public func watch(_ folders: [String], changed: @escaping @Sendable () -> Void) {
    state.withLock { state in
      for watch in state.watches { inotify_rm_watch(descriptor, watch) }
      // A folder that does not exist (yet) is not watched; SIGHUP reads everything again.
      state.watches = folders.map { inotify_add_watch(descriptor, $0, Self.mask) }.filter { $0 >= 0 }
      state.changed = changed
    }
  }

  /// Reads every event waiting and calls `changed` once if any concerns a workflow file.
  private func drain() {
    var relevant = false
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let (mask, length) = buffer.withUnsafeBytes { bytes in
          let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.mask, Int(event.len))
        }
        let name = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
        if Self.concernsWorkflows(mask: mask, name: String(decoding: name, as: UTF8.self)) { relevant = true }
        offset += header + length
      }
    }
    if relevant, let changed = state.withLock({ $0.changed }) { changed() }
  }

  static func concernsWorkflows(mask: UInt32, name: String) -> Bool {
    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW) != 0 { return true }
    guard !name.hasPrefix(".") else { return false }
    return name.hasSuffix(".yml") || name.hasSuffix(".yaml")
  }
}
