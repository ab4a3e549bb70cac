/// Paths as text, as `NSString`'s path methods read them (swift-corelibs-foundation): the few flow used, in
/// plain Swift, so that the executable links FoundationEssentials only. The tests in FlowDiagnosticsTests
/// compare each with `NSString`'s on the same paths.
public enum PathText {
  /// `NSString.lastPathComponent`: `/a/b/` → `b`, `/` → `/`, `a` → `a`.
  public static func lastComponent(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed.utf8.count > 1 else { return fixed }
    return String(fixed[startOfLastComponent(fixed)...])
  }

  /// `NSString.deletingLastPathComponent`: `/a/b/` → `/a`, `/a` → `/`, `a` → ``.
  public static func deletingLastComponent(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed != "/", !fixed.isEmpty else { return fixed }
    let start = startOfLastComponent(fixed)
    if start == fixed.startIndex { return "" }
    if start == fixed.index(after: fixed.startIndex) { return "/" }
    return String(fixed[..<fixed.index(before: start)])
  }

  /// `NSString.appendingPathComponent(_:)`: `component` after `path` and one `/`, unless either is empty
  /// or `path` ends in `/` already.
  public static func appendingComponent(_ component: String, to path: String) -> String {
    if component.isEmpty { return path }
    if path.isEmpty { return component }
    return path.hasSuffix("/") ? path + component : path + "/" + component
  }

  /// `NSString.pathExtension`: what follows the last `.` of the last component, unless the component starts
  /// with it (`.profile`) or is `..`.
  public static func pathExtension(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed.utf8.count > 1, let start = startOfExtension(fixed) else { return "" }
    return String(fixed[start...])
  }

  /// Runs of `/` made one, and a trailing `/` dropped; `/` alone stays.
  static func fixingSlashes(_ path: String) -> String {
    guard path != "/" else { return path }
    var result = ""
    result.reserveCapacity(path.utf8.count)
    var previousWasSlash = false
    for character in path {
      if character == "/" {
        if !previousWasSlash { result.append(character) }
        previousWasSlash = true
      } else {
        result.append(character)
        previousWasSlash = false
      }
    }
    if result.hasSuffix("/") { result.removeLast() }
    return result
  }

  private static func startOfLastComponent(_ fixed: String) -> String.Index {
    var position = fixed.endIndex
    while position > fixed.startIndex {
      let previous = fixed.index(before: position)
      if fixed[previous] == "/" { break }
      position = previous
    }
    return position
  }

  private static func startOfExtension(_ fixed: String) -> String.Index? {
    let componentStart = startOfLastComponent(fixed)
    var position = fixed.endIndex
    while position > componentStart {
      let previous = fixed.index(before: position)
      if fixed[previous] == "." {
        if previous == componentStart { return nil }
        let beforeDot = fixed.index(before: previous)
        if previous == fixed.index(before: fixed.endIndex) && beforeDot == componentStart && fixed[beforeDot] == "." {
          return nil
        }
        return position
      }
      position = previous
    }
    return nil
  }
}

extension PathText {
  /// Foundation's `NSTemporaryDirectory()`: `TMPDIR` with a trailing `/`, or `/tmp/`.
  public static func temporaryDirectory(environment: [String: String]) -> String {
    guard let folder = environment["TMPDIR"] else { return "/tmp/" }
    return folder.hasSuffix("/") ? folder : folder + "/"
  }
}
