import FlowIntents
import FoundationEssentials
import Glibc

/// The files of this machine, as the file actions reach them: injected (`@Dependency var files`) so that
/// this module never reads the environment, and so that the paths a run resolves (`~`, relative ones)
/// come from the command line's home and working directory.
public protocol Files: Sendable {
  /// The home, working directory and Trash locations paths are resolved against.
  var locations: FileLocations { get }
  /// The file or folder at `path` (a symbolic link is followed), or a named error.
  func item(at path: String) throws -> FileEntity
  /// The files and folders a glob (`~/Downloads/*.tmp`) matches, sorted by path; none is an empty list.
  func matching(_ pattern: String) throws -> [FileEntity]
  /// What a folder holds: its files and folders (with `recursive`, those of its folders too, never
  /// following a link to a folder), names starting with a dot only with `hidden`, and only names that
  /// `pattern` matches when one is given.
  func contents(of folder: String, recursive: Bool, hidden: Bool, pattern: String?) throws -> [FileEntity]
  /// The bytes of a regular file, at most `limit` of them.
  func read(_ path: String, limit: Int) throws -> [UInt8]
  /// Writes `bytes` to `path` (through a temporary file renamed over it, or appended); returns the
  /// path written, which `keep-both` numbers.
  func write(_ bytes: [UInt8], to path: String, ifExists: IfExists, createFolders: Bool) throws -> String
  /// Whether the file ends with a newline, or is empty or missing: `append-to-file` puts its text on a
  /// line of its own.
  func endsWithNewline(_ path: String) -> Bool
  /// Copies or moves a file or folder to `destination` (into it, when it is a folder); returns the new path.
  func transfer(_ source: String, to destination: String, move: Bool, ifExists: IfExists) throws -> String
  /// Makes a folder and, with `intermediate`, the folders above it; an existing folder is fine.
  func createFolder(_ path: String, intermediate: Bool) throws -> String
  /// Moves a file or folder to the Trash (the freedesktop.org specification); returns where it went.
  func trash(_ path: String, at date: Date) throws -> String
  /// Deletes a file or folder for good.
  func delete(_ path: String) throws
}

/// Where `~` and relative paths lead and where the home Trash is, from the environment the command
/// line read.
public struct FileLocations: Sendable, Hashable {
  /// `$HOME`.
  public var home: String
  /// The working directory relative paths start from.
  public var workingDirectory: String
  /// `$XDG_DATA_HOME`, or `~/.local/share`: the home Trash is its `Trash` folder.
  public var dataHome: String
  /// The user's id, for a volume's `.Trash-$UID`.
  public var userID: UInt32

  public init(home: String, workingDirectory: String, dataHome: String? = nil, userID: UInt32 = getuid()) {
    self.home = home
    self.workingDirectory = workingDirectory
    self.dataHome = dataHome.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
    self.userID = userID
  }

  /// The absolute path a workflow's path names: `~` and `~/…` are the home, a relative path starts in the
  /// working directory; `.` and `..` are resolved in the text (as a shell does), links are not.
  public func absolute(_ path: String) -> String {
    var full: String
    if path == "~" {
      full = home
    } else if path.hasPrefix("~/") {
      full = home + path.dropFirst(1)
    } else if path.hasPrefix("/") {
      full = path
    } else {
      full = workingDirectory + "/" + path
    }
    var parts: [Substring] = []
    for part in full.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    full = "/" + parts.joined(separator: "/")
    return full
  }

  /// A path as messages show it: under the home, with `~`.
  public func display(_ path: String) -> String {
    if path == home { return "~" }
    if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
    return path
  }
}
