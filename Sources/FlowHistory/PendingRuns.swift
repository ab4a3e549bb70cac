import FlowLibrary
import FlowSQLite
import FoundationEssentials
import Glibc

/// What runs have written since history was last read: `history.sqlite-pending`, one line per entry,
/// appended by the `flow` processes that run, and moved into `history.sqlite` by the next one that reads
/// history or finds the file large (``RunHistory``).
///
/// A one-step run spent a sixth of its time in SQLite to write two rows that nobody reads before
/// `flow runs`: opening the database, replaying its write-ahead log, parsing its schema and five
/// statements. Appending a line is a few system calls.
///
/// Each entry is the values of one statement: a run's row as it starts (`B`), a trace entry (`S`), a run's
/// end (`E`). A writer holds a shared `flock` while it appends one whole entry list; the reader holds the
/// exclusive lock while it reads and empties the file, so that no entry is read twice or lost, and a run
/// going on while history is read goes on appending.
struct PendingRuns {
  let path: String

  enum Entry: Equatable {
    /// The `runs` row of a run that starts: ``RunHistory``'s insert values.
    case began([SQLValue])
    /// A trace entry of the run `id`: its `steps` values after the run's key.
    case step(id: String, [SQLValue])
    /// The end of the run `id`: its update values, then the workflow key and the policy to prune it by.
    case ended(id: String, [SQLValue], workflowKey: String, policy: HistoryPolicy)
  }

  /// Appends `entries` in one write. Throws what the system said.
  func append(_ entries: [Entry]) throws(HistoryError) {
    var line: [UInt8] = []
    for entry in entries { Self.encode(entry, to: &line) }
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("cannot open") }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_SH) != 0 { guard errno == EINTR else { throw failure("cannot lock") } }
    var bytes = line[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        guard errno == EINTR else { throw failure("cannot write") }
        continue
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// The size of the file, 0 when there is none.
  var size: Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
  }

  /// Hands the entries to `body` and empties the file when it returns; a throw leaves them for the next
  /// reader. A line cut short (a process killed as it wrote) or from a newer flow is skipped.
  func take(_ body: ([Entry]) throws(HistoryError) -> Void) throws(HistoryError) {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return try body([]) }
      throw failure("cannot open")
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 { guard errno == EINTR else { throw failure("cannot lock") } }
    guard let entries = Self.entries(descriptor) else { throw failure("cannot read") }
    try body(entries)
    guard ftruncate(descriptor, 0) == 0 else { throw failure("cannot empty") }
  }

  /// The start and end entries of the run `id`, left where they are: for a reader that only looks.
  /// Only their lines are read as entries (the file holds up to a hundred runs'). Taken beside the
  /// writers' shared lock, so the last line may be one still being written, skipped as cut short.
  func peek(run id: String) -> [Entry] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_SH) != 0 { guard errno == EINTR else { return [] } }
    // As ``encode(_:to:)`` writes them: the kind, a tab, and the id as the first text value.
    let starts = ["B", "E"].map { Array("\($0)\tt\(id)\t".utf8) }
    return Self.entries(descriptor) { line in starts.contains { line.starts(with: $0) } } ?? []
  }

  /// Every whole entry in the open file whose line `wanted` keeps; nil when it cannot be read.
  private static func entries(
    _ descriptor: Int32, wanted: (ArraySlice<UInt8>) -> Bool = { _ in true }
  ) -> [Entry]? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { read(descriptor, $0 + count, buffer.count - count) } ?? 0
      }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else { return nil }
      if got == 0 { break }
      count += got
    }
    return bytes[..<count].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
      .filter(wanted).compactMap { entry(String(decoding: $0, as: UTF8.self)) }
  }

  private func failure(_ what: String) -> HistoryError {
    HistoryError(description: "\(what) \(path): \(String(cString: strerror(errno)))")
  }

  // MARK: - Lines

  /// Appends `entry`'s line to `line`: `B`, `S` or `E` and the fields, separated by tabs, `-` for null,
  /// `i` and an integer, `t` and text with `\`, tab, line feed and carriage return escaped; a line feed
  /// ends it. Built as bytes: escaping a text by Unicode scalars, each appended to a `String`, was
  /// 100,000 instructions a line, a twentieth of a one-step run. The four escaped characters are ASCII,
  /// which UTF-8 never uses inside another character.
  static func encode(_ entry: Entry, to line: inout [UInt8]) {
    func append(_ values: [SQLValue]) {
      for value in values { append(value) }
    }
    func append(_ value: SQLValue) {
      line.append(UInt8(ascii: "\t"))
      switch value {
      case .null: line.append(UInt8(ascii: "-"))
      case .integer(let number):
        line.append(UInt8(ascii: "i"))
        line.append(contentsOf: String(number).utf8)
      case .real(let number):
        line.append(UInt8(ascii: "r"))
        line.append(contentsOf: String(number).utf8)
      case .text(let text):
        line.append(UInt8(ascii: "t"))
        for byte in text.utf8 {
          let escaped: UInt8? =
            switch byte {
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): UInt8(ascii: "t")
            case UInt8(ascii: "\n"): UInt8(ascii: "n")
            case UInt8(ascii: "\r"): UInt8(ascii: "r")
            default: nil
            }
          if let escaped {
            line.append(UInt8(ascii: "\\"))
            line.append(escaped)
          } else {
            line.append(byte)
          }
        }
      }
    }
    switch entry {
    case .began(let values):
      line.append(UInt8(ascii: "B"))
      append(values)
    case .step(let id, let values):
      line.append(UInt8(ascii: "S"))
      append(.text(id))
      append(values)
    case .ended(let id, let values, let workflowKey, let policy):
      line.append(UInt8(ascii: "E"))
      append(.text(id))
      append(values)
      append([.text(workflowKey), .integer(Int64(policy.keepRuns)), .integer(Int64(policy.keepDays))])
    }
    line.append(UInt8(ascii: "\n"))
  }

  static func entry(_ line: String) -> Entry? {
    let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard let kind = parts.first else { return nil }
    var values: [SQLValue] = []
    for part in parts.dropFirst() {
      guard let value = value(part) else { return nil }
      values.append(value)
    }
    switch kind {
    case "B" where values.count == RunHistory.insertColumns:
      return .began(values)
    case "B" where values.count == RunHistory.insertColumns - 1:
      // Written by a flow from before `trigger_detail`.
      return .began(values + [.null])
    case "S" where values.count == RunHistory.stepColumns + 1:
      guard case .text(let id) = values[0] else { return nil }
      return .step(id: id, Array(values.dropFirst()))
    case "E" where values.count == RunHistory.updateColumns + 4:
      guard case .text(let id) = values[0], case .text(let key) = values[values.count - 3],
        case .integer(let runs) = values[values.count - 2], case .integer(let days) = values[values.count - 1]
      else { return nil }
      let policy = HistoryPolicy(keepRuns: Int(runs), keepDays: Int(days))
      return .ended(id: id, Array(values[1..<(values.count - 3)]), workflowKey: key, policy: policy)
    default:
      return nil
    }
  }

  private static func value(_ field: Substring) -> SQLValue? {
    guard let kind = field.first else { return nil }
    let rest = field.dropFirst()
    switch kind {
    case "-" where rest.isEmpty: return .null
    case "i": return Int64(rest).map(SQLValue.integer)
    case "r": return Double(rest).map(SQLValue.real)
    case "t":
      var text = ""
      var escaping = false
      for character in rest.unicodeScalars {
        if escaping {
          switch character {
          case "t": text += "\t"
          case "n": text += "\n"
          case "r": text += "\r"
          case "\\": text += "\\"
          default: return nil
          }
          escaping = false
        } else if character == "\\" {
          escaping = true
        } else {
          text.unicodeScalars.append(character)
        }
      }
      return escaping ? nil : .text(text)
    default: return nil
    }
  }
}
