import Glibc

/// What stat(2) says of a file that changes whenever its contents may have: its inode (a file written
/// beside it and renamed into place is a new one), its size, and the times of its last modification and
/// of its last change of status, to the nanosecond. Equal stamps mean a file need not be read again
/// (`flow mcp` re-checks only the library workflows whose stamps moved: Documentation/MCP.md).
public struct FileStamp: Sendable, Equatable {
  private var device: UInt64
  private var inode: UInt64
  private var size: Int64
  private var modified: timespec
  private var changed: timespec

  /// The stamp of the file at `path`, links followed; nil when nothing is there.
  public init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    modified = status.st_mtim
    changed = status.st_ctim
  }

  public static func == (one: FileStamp, other: FileStamp) -> Bool {
    one.device == other.device && one.inode == other.inode && one.size == other.size
      && one.modified.tv_sec == other.modified.tv_sec && one.modified.tv_nsec == other.modified.tv_nsec
      && one.changed.tv_sec == other.changed.tv_sec && one.changed.tv_nsec == other.changed.tv_nsec
  }
}
