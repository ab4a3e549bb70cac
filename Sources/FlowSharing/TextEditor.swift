import FlowDiagnostics
import FlowYAML

/// Edits a workflow file's bytes at places the YAML tree names, leaving every other byte as it was, so
/// that comments and formatting survive an export or an import question.
struct TextEditor {
  private(set) var bytes: [UInt8]
  /// The byte offset of each line's start; line N starts at `lineStarts[N - 1]`.
  private let lineStarts: [Int]
  private var edits: [(range: Range<Int>, replacement: [UInt8])] = []

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
    lineStarts = starts
  }

  /// The byte offset of a place: its line's start, then its column counted in Unicode scalars.
  func offset(_ location: SourceLocation) -> Int {
    guard location.line - 1 < lineStarts.count else { return bytes.count }
    var offset = lineStarts[location.line - 1]
    var column = 1
    while column < location.column, offset < bytes.count, bytes[offset] != 0x0A {
      offset += 1
      // Continuation bytes belong to the scalar before them.
      while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      column += 1
    }
    return offset
  }

  /// The byte offset of the start of `line`, or the end of the bytes past the last line.
  func lineStart(_ line: Int) -> Int {
    line - 1 < lineStarts.count ? lineStarts[line - 1] : bytes.count
  }

  /// The last line a node's text reaches. Block collections and block scalars end where the next token
  /// starts, so their end mark is not used: the last scalar inside decides.
  static func lastLine(of node: YAMLNode) -> Int {
    switch node {
    case .scalar(let scalar):
      let end = scalar.span.end
      return end.column == 1 && end.line > scalar.span.start.line ? end.line - 1 : end.line
    case .sequence(let sequence):
      return sequence.isFlow ? sequence.span.end.line : sequence.items.map(lastLine).max() ?? sequence.span.start.line
    case .mapping(let mapping):
      return mapping.isFlow
        ? mapping.span.end.line
        : mapping.entries.map { max($0.key.span.end.line, lastLine(of: $0.value)) }.max() ?? mapping.span.start.line
    }
  }

  mutating func replace(_ range: Range<Int>, with text: String) {
    edits.append((range, Array(text.utf8)))
  }

  /// Removes a mapping entry: its whole lines in a block mapping, the entry and one comma beside it in a
  /// flow mapping.
  mutating func remove(_ entry: YAMLNode.Mapping.Entry, in mapping: YAMLNode.Mapping) {
    if mapping.isFlow {
      var start = offset(entry.key.span.start)
      var end = offset(entry.value.span.end)
      // Take the comma after the entry, or else the one before it.
      var after = end
      while after < bytes.count, bytes[after] == 0x20 { after += 1 }
      if after < bytes.count, bytes[after] == UInt8(ascii: ",") {
        end = after + 1
        while end < bytes.count, bytes[end] == 0x20 { end += 1 }
      } else {
        var before = start - 1
        while before > 0, bytes[before] == 0x20 { before -= 1 }
        if bytes[before] == UInt8(ascii: ",") { start = before }
      }
      replace(start..<end, with: "")
    } else {
      let last = max(entry.key.span.end.line, Self.lastLine(of: entry.value))
      replace(lineStart(entry.key.span.start.line)..<lineStart(last + 1), with: "")
    }
  }

  /// Adds `key: value` to a mapping: a line after its last one, indented as its keys are, or before the
  /// closing brace of a flow mapping.
  mutating func add(key: String, value: String, to mapping: YAMLNode.Mapping) {
    if mapping.isFlow {
      let close = offset(mapping.span.end) - 1
      replace(close..<close, with: (mapping.entries.isEmpty ? "" : ", ") + "\(key): \(value)")
    } else {
      let indent = String(repeating: " ", count: max(0, (mapping.entries.first?.key.span.start.column ?? 1) - 1))
      let at = lineStart(Self.lastLine(of: .mapping(mapping)) + 1)
      let newline = at > 0 && at == bytes.count && bytes[at - 1] != 0x0A ? "\n" : ""
      replace(at..<at, with: "\(newline)\(indent)\(key): \(value)\n")
    }
  }

  /// The bytes with every edit made. Edits must not overlap.
  func applied() -> [UInt8] {
    var out = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      out.replaceSubrange(edit.range, with: edit.replacement)
    }
    return out
  }
}
