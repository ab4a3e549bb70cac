import FoundationEssentials
import Glibc

extension URL {
  /// The path of a file URL, as `path` gives it, for the code a run goes through.
  ///
  /// On Linux, `path` percent-decodes through a `Set<UInt8>` that swift-foundation builds at every call,
  /// and the first such set in a process makes the Swift runtime check `UInt8: Hashable` by scanning every
  /// protocol conformance in the program: 0.3 ms of a one-step run (Performance.md).
  /// `path(percentEncoded: false)` decodes without one. It differs from `path` only in keeping trailing
  /// slashes, dropped here, and in decoding `%2F` and `%00`, which a URL made from a file path never holds:
  /// it encodes a `%` in a name as `%25`. `FileSystemPathTests` holds the two to each other.
  public var fileSystemPath: String {
    var path = path(percentEncoded: false)
    while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
    return path
  }
}

/// Paths as text, for the code a run goes through (see ``Foundation/URL/fileSystemPath``).
public enum FileSystemPath {
  /// `path` made absolute against `directory` (itself absolute), as `URL(fileURLWithPath:).path` makes it:
  /// joined, with trailing slashes dropped; `.`, `..` and doubled slashes are left as written.
  public static func absolute(_ path: String, in directory: String) -> String {
    var joined: String
    if path.hasPrefix("/") {
      joined = path
    } else {
      joined = directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
    while joined.utf8.count > 1, joined.utf8.last == UInt8(ascii: "/") { joined.removeLast() }
    return joined
  }

  /// `path` made absolute against `directory` with `~` (and `~/…`) read as `home`, and its `.`, `..` and
  /// doubled slashes taken out by name: links are left as they are. What Foundation's
  /// `standardizingPath` gives a path whose folders are not links, without the first use of `NSString`,
  /// which costs a run that makes it half a million instructions.
  public static func standardized(_ path: String, in directory: String, home: String?) -> String {
    var parts: [Substring] = []
    for part in absolute(expandingHome(path, home: home), in: directory).split(separator: "/") where part != "." {
      if part == ".." { _ = parts.popLast() } else { parts.append(part) }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `~` and `~/…` with the home folder; anything else as it is (`~user` too).
  public static func expandingHome(_ path: String, home: String?) -> String {
    guard let home, path == "~" || path.hasPrefix("~/") else { return path }
    return home + path.dropFirst()
  }

  /// The file at `path`, absolute, with every link and every `.` and `..` resolved (realpath(3)); nil when
  /// nothing is there.
  public static func resolved(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
