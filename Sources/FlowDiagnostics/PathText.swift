/// Paths as text, as `NSString`'s path methods read them (swift-corelibs-foundation): the few flow used, in
/// plain Swift, so that the executable links FoundationEssentials only. The tests in FlowDiagnosticsTests
/// compare each with `NSString`'s on the same paths.
public enum PathText {
  /// `NSString.lastPathComponent`: `/a/b/` → `b`, `/` → `/`, `a` → `a`.
  public static func lastComponent(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed.utf8.count > 1 else { return fixed }
    if let slash = lastASCIISlash(fixed) { return String(fixed[fixed.utf8.index(after: slash)...]) }
    return String(fixed[startOfLastComponent(fixed)...])
  }

  /// `NSString.deletingLastPathComponent`: `/a/b/` → `/a`, `/a` → `/`, `a` → ``.
  public static func deletingLastComponent(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed != "/", !fixed.isEmpty else { return fixed }
    if isASCII(fixed) {
      guard let slash = fixed.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
      return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
    }
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
    // Most paths have neither (a run's paths are read several times at every start): they are kept as
    // they are. `NSString` compares characters, so a `/` with a combining mark after it is no separator;
    // ASCII text has none, and is fixed byte by byte.
    if isASCII(path) {
      var previous: UInt8 = 0
      var clean = path.utf8.last != UInt8(ascii: "/")
      if clean {
        for byte in path.utf8 {
          if byte == UInt8(ascii: "/") && previous == byte {
            clean = false
            break
          }
          previous = byte
        }
      }
      if clean { return path }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(path.utf8.count)
      for byte in path.utf8 where !(byte == UInt8(ascii: "/") && bytes.last == byte) { bytes.append(byte) }
      if bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
      return String(decoding: bytes, as: UTF8.self)
    }
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

  private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

  /// The last `/` of ASCII text (nil for other text, or none).
  private static func lastASCIISlash(_ text: String) -> String.Index? {
    isASCII(text) ? text.utf8.lastIndex(of: UInt8(ascii: "/")) : nil
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
