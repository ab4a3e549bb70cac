/// A file that diagnostics can point into: the path as the person gave it, and its bytes.
///
/// The bytes are kept as read (they may not be valid UTF-8) so that a diagnostic about an invalid byte can
/// still show the line around it. Shared by reference: every span of a parsed file points at one instance.
public final class SourceFile: Sendable {
  /// The path as the person typed it; relative stays relative.
  public let path: String
  /// The file's contents, exactly as read.
  public let bytes: [UInt8]

  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  public convenience init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }

  /// The text of the 1-based line `number`, without its line break; invalid UTF-8 shows as U+FFFD.
  ///
  /// A linear scan: it runs only when a diagnostic is rendered, never while parsing.
  public func line(_ number: Int) -> String? {
    guard number >= 1 else { return nil }
    var current = 1
    var start = 0
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == 0x0A || byte == 0x0D {
        if current == number { return decode(start..<index) }
        // A CR LF pair ends one line, as libyaml counts it.
        if byte == 0x0D, index + 1 < count, bytes[index + 1] == 0x0A { index += 1 }
        current += 1
        start = index + 1
      }
      index += 1
    }
    return current == number ? decode(start..<count) : nil
  }

  private func decode(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }
}

/// A position in a source file: 1-based line and column, the column counted in Unicode scalars (libyaml's
/// unit). Converted to display width only when drawing.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  public var description: String { "\(line):\(column)" }
}

/// A range in a source file, from `start` up to (not including) `end`.
public struct SourceSpan: Hashable, Sendable, CustomStringConvertible {
  public let file: SourceFile
  public var start: SourceLocation
  public var end: SourceLocation

  public init(file: SourceFile, start: SourceLocation, end: SourceLocation) {
    self.file = file
    self.start = start
    self.end = end
  }

  /// A span of one character at `location`.
  public init(file: SourceFile, at location: SourceLocation) {
    self.init(file: file, start: location, end: SourceLocation(line: location.line, column: location.column + 1))
  }

  /// `path:line:column` of the start, the prefix of every diagnostic.
  public var description: String { "\(file.path):\(start)" }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.file === rhs.file && lhs.start == rhs.start && lhs.end == rhs.end
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(file))
    hasher.combine(start)
    hasher.combine(end)
  }
}
