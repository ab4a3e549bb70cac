import Synchronization

/// A file that diagnostics can point into: the path as the person gave it, and its bytes.
///
/// The bytes are kept as read (they may not be valid UTF-8) so that a diagnostic about an invalid byte can
/// still show the line around it. Every file gets a small number on creation, and spans store that
/// number rather than a reference: a parsed file has millions of spans, and counting references to the
/// file from each of them cost a fifth of the parse time.
public final class SourceFile: Sendable {
  /// The path as the person typed it; relative stays relative.
  public let path: String
  /// The file's contents, exactly as read.
  public let bytes: [UInt8]
  /// This file's number in ``SourceFile/registry``; what a span stores.
  package let id: UInt32

  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
    self.id = Self.registry.reserve()
    Self.registry.store(self, at: id)
  }

  /// Every file created in this process, by number. Files live as long as the process: a run reads a
  /// handful, and any span may still be rendered at the end.
  static let registry = Registry()

  /// Forgets `file` and lets a later file take its number. For a process that makes files without end
  /// (the fuzzing harness, `FlowFuzzing`, checks millions), and only once nothing will render a span of
  /// `file` again: such a span would name the later file.
  package static func release(_ file: SourceFile) {
    registry.release(file.id)
  }

  final class Registry: Sendable {
    private struct Slots {
      var files: [SourceFile?] = []
      /// Numbers of released files, taken before the array grows.
      var free: [UInt32] = []
    }

    private let slots = Mutex(Slots())

    func reserve() -> UInt32 {
      slots.withLock { slots in
        if let id = slots.free.popLast() { return id }
        slots.files.append(nil)
        return UInt32(slots.files.count - 1)
      }
    }

    func store(_ file: SourceFile, at id: UInt32) {
      slots.withLock { $0.files[Int(id)] = file }
    }

    func file(_ id: UInt32) -> SourceFile {
      slots.withLock { slots in
        guard let file = slots.files[Int(id)] else { preconditionFailure("span of an unregistered file") }
        return file
      }
    }

    func release(_ id: UInt32) {
      slots.withLock { slots in
        guard slots.files[Int(id)] != nil else { return }
        slots.files[Int(id)] = nil
        slots.free.append(id)
      }
    }
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
///
/// Stored compactly (the file's number and 32-bit positions, 20 bytes, no reference counting) because
/// every node and key of a parsed file carries one.
public struct SourceSpan: Hashable, Sendable, CustomStringConvertible {
  private let fileID: UInt32
  private var startLine: Int32
  private var startColumn: Int32
  private var endLine: Int32
  private var endColumn: Int32

  public init(file: SourceFile, start: SourceLocation, end: SourceLocation) {
    self.init(fileID: file.id, start: start, end: end)
  }

  /// A span in the file numbered `fileID`, for parsers that make millions of spans and should not
  /// touch the file object for each.
  package init(fileID: UInt32, start: SourceLocation, end: SourceLocation) {
    self.fileID = fileID
    startLine = Int32(clamping: start.line)
    startColumn = Int32(clamping: start.column)
    endLine = Int32(clamping: end.line)
    endColumn = Int32(clamping: end.column)
  }

  /// A span of one character at `location`.
  public init(file: SourceFile, at location: SourceLocation) {
    self.init(file: file, start: location, end: SourceLocation(line: location.line, column: location.column + 1))
  }

  public var file: SourceFile { SourceFile.registry.file(fileID) }

  public var start: SourceLocation {
    get { SourceLocation(line: Int(startLine), column: Int(startColumn)) }
    set {
      startLine = Int32(clamping: newValue.line)
      startColumn = Int32(clamping: newValue.column)
    }
  }

  public var end: SourceLocation {
    get { SourceLocation(line: Int(endLine), column: Int(endColumn)) }
    set {
      endLine = Int32(clamping: newValue.line)
      endColumn = Int32(clamping: newValue.column)
    }
  }

  /// `path:line:column` of the start, the prefix of every diagnostic.
  public var description: String { "\(file.path):\(start)" }
}
