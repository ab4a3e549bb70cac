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
  public let id: UInt32
  /// Whether diagnostics may quote the file's lines. A file that may not be a workflow at all
  /// (`run-workflow: ~/.aws/credentials`) is pointed at by line and column, never shown: its lines would
  /// otherwise reach the terminal and run history.
  public let isQuotable: Bool

  public init(path: String, bytes: [UInt8], isQuotable: Bool = true) {
    self.path = path
    self.bytes = bytes
    self.isQuotable = isQuotable
    self.id = Self.registry.register(bytes: bytes.count)
    Self.registry.store(self, at: id)
  }

  deinit { Self.registry.remove(id, bytes: bytes.count) }

  /// The files alive in this process, by number. The registry holds them weakly: a file lives as long as
  /// what was read from it (its `YAMLDocument`, its `Workflow`) or a `Diagnostic` pointing into it holds it,
  /// and leaves the registry when the last of them goes. A scheduler that reads a library file again at
  /// every edit would otherwise keep every version it ever read.
  static let registry = Registry()

  /// How many files are alive, and their bytes: what a long-running process keeps of the files it read.
  public static var registered: (files: Int, bytes: Int) { registry.usage }

  /// How many of the files alive are `matching`: for tests, which share the registry with others running.
  public static func registered(matching predicate: (SourceFile) -> Bool) -> Int {
    registry.count(matching: predicate)
  }

  final class Registry: Sendable {
    private struct Entry {
      weak var file: SourceFile?
    }

    private struct State {
      /// By number, ascending, since numbers only grow: a sorted list rather than a `[UInt32: Entry]`,
      /// whose first use would make the Swift runtime scan every conformance in the binary (0.4 M
      /// instructions of every start, Performance.md). Few files are loaded at once.
      var files: [(id: UInt32, entry: Entry)] = []
      /// Numbers are never reused, so that a span of a file that has gone can never name another one.
      var next: UInt32 = 0
      var bytes = 0

      func index(of id: UInt32) -> Int? {
        var low = 0
        var high = files.count
        while low < high {
          let middle = (low + high) / 2
          if files[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < files.count && files[low].id == id ? low : nil
      }
    }

    private let state = Mutex(State())

    func register(bytes: Int) -> UInt32 {
      state.withLock { state in
        let id = state.next
        state.next &+= 1
        state.files.append((id, Entry()))
        state.bytes += bytes
        return id
      }
    }

    func store(_ file: SourceFile, at id: UInt32) {
      state.withLock { state in
        if let index = state.index(of: id) { state.files[index].entry = Entry(file: file) }
      }
    }

    func remove(_ id: UInt32, bytes: Int) {
      state.withLock { state in
        guard let index = state.index(of: id) else { return }
        state.files.remove(at: index)
        state.bytes -= bytes
      }
    }

    var usage: (files: Int, bytes: Int) { state.withLock { ($0.files.count, $0.bytes) } }

    func count(matching predicate: (SourceFile) -> Bool) -> Int {
      // Strong references taken under the lock, looked at outside it: a file's deinit takes the lock too.
      let files = state.withLock { $0.files.compactMap(\.entry.file) }
      return files.filter(predicate).count
    }

    func file(_ id: UInt32) -> SourceFile {
      if let file = state.withLock({ state in state.index(of: id).flatMap { state.files[$0].entry.file } }) {
        return file
      }
      // A span outlived every holder of its file: a bug, loud in debug builds, and in a release build a
      // diagnostic without its line rather than a crash.
      assertionFailure("span of a file that is no longer loaded")
      return Self.unloaded
    }

    private static let unloaded = SourceFile(path: "<unloaded file>", bytes: [])
  }

  public convenience init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }

  /// The text of the 1-based line `number`, without its line break; invalid UTF-8 shows as U+FFFD.
  ///
  /// A linear scan: it runs only when a diagnostic is rendered, never while parsing.
  /// Nil for a file that is not ``isQuotable``.
  public func line(_ number: Int) -> String? {
    guard number >= 1, isQuotable else { return nil }
    // A UTF-8 byte-order mark is no column (YAMLDocument does not hand it to libyaml): not shown either.
    let mark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var current = 1
    var start = mark
    var index = mark
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
  public init(fileID: UInt32, start: SourceLocation, end: SourceLocation) {
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
