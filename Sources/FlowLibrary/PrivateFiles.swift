import FlowDiagnostics
import FoundationEssentials
import Glibc

/// Folders and files flow keeps under its XDG folders, private to the user whatever the umask: folders
/// mode 0700 (as the XDG specification asks), files 0600. Bookmarks, run history, keys and workflows are
/// nobody else's business, and a umask of 000 must not make them everybody's.
public enum PrivateFiles {
  /// Why a folder or file could not be made, in the system's words.
  public struct Failure: Error, CustomStringConvertible, LocalizedError {
    public var description: String
    public var errorDescription: String? { description }
  }

  /// Creates `url` and any missing parents, mode 0700, and returns what went wrong, if anything, in the
  /// system's words and naming the folder that could not be made ("/home/ada/.local/state: Permission
  /// denied"). One `mkdir` call when the parent exists, which is every run but the first: Foundation's
  /// version looks up file attributes and user names, a measurable part of a one-step run, says only
  /// "NSCocoaErrorDomain error 512" when a file stands where a folder should, and makes parents 0777 less
  /// the umask.
  public static func createDirectory(_ url: URL) -> String? {
    createDirectory(atPath: url.fileSystemPath)
  }

  /// ``createDirectory(_:)`` for a path.
  public static func createDirectory(atPath path: String) -> String? {
    problem(path).map { "cannot create \(path): \($0)" }
  }

  /// ``createDirectory(_:)`` for callers that throw.
  public static func ensureDirectory(_ url: URL) throws(Failure) {
    if let problem = createDirectory(url) { throw Failure(description: problem) }
  }

  /// Writes `data` to `url`, mode 0600, creating its folder (0700) if needed. Atomic: the bytes go to a new
  /// file beside it, created 0600 (never readable by others, not even for a moment), which then replaces
  /// `url`; with `replacing: false` an existing `url` is left alone and the write fails. `durable: false`
  /// skips the fsync, for a file that a crash may lose and the next start writes again.
  public static func write(_ data: Data, to url: URL, replacing: Bool = true, durable: Bool = true) throws(Failure) {
    try ensureDirectory(url.deletingLastPathComponent())
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("cannot write", url) }
    let written = data.withUnsafeBytes { bytes -> Bool in
      guard let base = bytes.baseAddress else { return true }
      var offset = 0
      while offset < bytes.count {
        let count = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
    let synced = !durable || fsync(descriptor) == 0
    close(descriptor)
    guard written, synced else {
      let error = failure("cannot write", url)
      unlink(temporary.path)
      throw error
    }
    // link(2) fails when the name exists, so `replacing: false` cannot overwrite a file that appeared meanwhile.
    let placed = replacing ? rename(temporary.path, url.path) == 0 : link(temporary.path, url.path) == 0
    let error = placed ? nil : failure("cannot write", url)
    if !replacing || !placed { unlink(temporary.path) }
    if let error { throw error }
  }

  /// Makes an existing file private (0600) if others may read or write it: files an earlier flow made with
  /// the umask's mode.
  public static func restrict(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & 0o077 != 0, status.st_uid == getuid() else { return }
    chmod(path, status.st_mode & 0o700)
  }

  private static func failure(_ what: String, _ url: URL) -> Failure {
    Failure(description: "\(what) \(url.path): \(String(cString: strerror(errno)))")
  }

  private static func problem(_ path: String) -> String? {
    if mkdir(path, 0o700) == 0 { return nil }
    let error = errno
    switch error {
    case EEXIST:
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return nil }
      return "\(path) is a file, not a folder"
    case ENOENT:
      let parent = PathText.deletingLastComponent(path)
      guard parent != path, !parent.isEmpty else { return String(cString: strerror(error)) }
      if let problem = problem(parent) { return problem }
      if mkdir(path, 0o700) == 0 || errno == EEXIST { return nil }
      return "\(path): \(String(cString: strerror(errno)))"
    case ENOTDIR:
      // A file stands where one of the parents should be: name it.
      var parent = PathText.deletingLastComponent(path)
      var status = stat()
      while !parent.isEmpty, parent != "/", stat(parent, &status) != 0 {
        parent = PathText.deletingLastComponent(parent)
      }
      return "\(parent) is a file, not a folder"
    default:
      return "\(path): \(String(cString: strerror(error)))"
    }
  }
}
