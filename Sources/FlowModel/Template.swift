import FlowDiagnostics
import FlowYAML

/// Text that may hold magic-variable references: `Saved “${saved.title}” (${saved.link.host})`.
///
/// Parsed once, when the workflow is loaded, with a span for every reference, so that a diagnostic
/// underlines exactly `${saved.titel}` and not the whole line. `$${` writes a literal `${`.
public struct Template: Sendable, Hashable {
  public enum Part: Sendable, Hashable {
    case literal(String)
    case reference(Reference)
  }

  public var parts: [Part]
  public var span: SourceSpan
  /// Plain text that looks like a reference in another tool's syntax — `$previous`, `{{ previous }}`.
  /// The checker warns where the name exists.
  public var lookalikes: [Lookalike]

  /// Text written as another tool writes a reference, and the reference it resembles (spanning the text).
  public struct Lookalike: Sendable, Hashable {
    public var written: String
    public var reference: Reference
  }

  public init(parts: [Part], span: SourceSpan, lookalikes: [Lookalike] = []) {
    self.parts = parts
    self.span = span
    self.lookalikes = lookalikes
  }

  /// The reference, when the text is exactly one reference: such a value passes the typed value on
  /// (a Bookmark stays a Bookmark); a reference inside other text becomes text.
  public var wholeReference: Reference? {
    if parts.count == 1, case .reference(let reference) = parts[0] { return reference }
    return nil
  }

  /// The text, when it holds no reference.
  public var literal: String? {
    // Asked of every value the checker meets: one with a reference says so before any text is joined.
    if parts.contains(where: { if case .reference = $0 { true } else { false } }) { return nil }
    var text = ""
    for part in parts {
      guard case .literal(let literal) = part else { return nil }
      text += literal
    }
    return text
  }

  /// Every reference, in order.
  public var references: [Reference] {
    parts.compactMap { if case .reference(let reference) = $0 { reference } else { nil } }
  }

  /// The text with its references as written (`Delete ${n} items?`): what a question or a nested
  /// workflow's name reads as before the run has computed it.
  public var asWritten: String {
    parts.map { part in
      switch part {
      case .literal(let text): text
      case .reference(let reference): "${\(reference)}"
      }
    }.joined()
  }
}

/// A magic variable and the path into it: `${saved.link.host}`, `${bookmarks[0].title}`, `${input.url}`.
public struct Reference: Sendable, Hashable, CustomStringConvertible {
  public enum Component: Sendable, Hashable {
    case property(String)
    case index(Int)
  }

  /// The variable: an `as` name, `previous`, `input`, `item`, `index`, `now`, `workflow`, `run`, `env`.
  public var root: String
  public var path: [Component]
  /// Date arithmetic after the path: `${now - 7 days}`; the value is then a date.
  public var dateOffset: DateOffset?
  /// The whole `${…}`.
  public var span: SourceSpan

  public init(root: String, path: [Component] = [], dateOffset: DateOffset? = nil, span: SourceSpan) {
    self.root = root
    self.path = path
    self.dateOffset = dateOffset
    self.span = span
  }

  /// As written, without `${}`: `saved.link.host`.
  public var description: String {
    root
      + path.map { component in
        switch component {
        case .property(let name): ".\(name)"
        case .index(let index): "[\(index)]"
        }
      }.joined() + (dateOffset.map { " \($0)" } ?? "")
  }
}

// MARK: - Parsing

extension Template {
  /// Parses the text of `scalar`, reporting malformed references into `diagnostics`.
  public static func parse(_ scalar: YAMLNode.Scalar, into diagnostics: inout Diagnostics) -> Template {
    parse(scalar.value, locatedBy: ScalarLocator(scalar), into: &diagnostics)
  }

  static func parse(_ text: String, locatedBy locator: ScalarLocator, into diagnostics: inout Diagnostics)
    -> Template
  {
    // Most values hold no reference and nothing that looks like one: they are one literal as they are.
    if !Self.mayHoldReference(text) {
      return Template(parts: text.isEmpty ? [] : [.literal(text)], span: locator.whole)
    }
    if let template = parseReferences(text, locatedBy: locator, into: &diagnostics) { return template }
    var parts: [Part] = []
    var literal = ""
    var lookalikes: [Lookalike] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func flush() {
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
    }
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "$", index + 2 < scalars.count, scalars[index + 1] == "$", scalars[index + 2] == "{" {
        literal += "${"
        index += 3
        continue
      }
      guard scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "{" else {
        if let lookalike = Self.lookalike(in: scalars, at: index, locator: locator) { lookalikes.append(lookalike) }
        // The text up to the next character that may start a reference or a look-alike, in one piece.
        var end = index + 1
        while end < scalars.count, scalars[end] != "$", scalars[end] != "{" { end += 1 }
        literal.unicodeScalars.append(contentsOf: scalars[index..<end])
        index = end
        continue
      }
      guard let close = scalars[(index + 2)...].firstIndex(of: "}") else {
        diagnostics.append(
          Diagnostic(.error, .malformedReference, "'${' is not closed by '}'", at: locator.span(index, index + 2))
            .help("write '$${' for a literal '${'"))
        literal += String(String.UnicodeScalarView(scalars[index...]))
        break
      }
      flush()
      let span = locator.span(index, close + 1)
      let inside = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
      let split = DateOffset.split(inside, locator: locator.shifted(by: index + 2), into: &diagnostics)
      if case .invalid = split {
        parts.append(.literal("${\(inside)}"))
      } else if case .offset(let base, let offset) = split {
        if var reference = Reference.parse(base, span: span) {
          reference.dateOffset = offset
          parts.append(.reference(reference))
        } else {
          diagnostics.append(
            Diagnostic(.error, .malformedReference, "malformed reference '${\(inside)}'", at: span)
              .help("date arithmetic follows a name, like '${now - 7 days}' or '${file.modified + 1 hour}'"))
          parts.append(.literal("${\(inside)}"))
        }
      } else if let reference = Reference.parse(inside, span: span) {
        parts.append(.reference(reference))
      } else {
        diagnostics.append(
          Diagnostic(.error, .malformedReference, "malformed reference '${\(inside)}'", at: span)
            .help("a reference is a name with optional '.property' and '[index]' parts, like '${saved.title}'"))
        parts.append(.literal("${\(inside)}"))
      }
      index = close + 1
    }
    flush()
    return Template(parts: parts, span: locator.whole, lookalikes: lookalikes)
  }

  /// Whether `text` has a `$` or a `{`, without which nothing in it is or looks like a reference; read
  /// on the stored bytes, which a walk of the string's UTF-8 view is several times slower than.
  private static func mayHoldReference(_ text: String) -> Bool {
    func found(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "$") || byte == UInt8(ascii: "{") }
    return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: found) } ?? text.utf8.contains(where: found)
  }

  /// The common case, read as UTF-8 bytes: text whose every `$` starts a closed `${…}` (or `$${`) and that
  /// has no `{{`, so nothing in it can look like another tool's reference. Literal runs are copied whole
  /// and only the references are parsed; nil hands anything else to the general reader above.
  private static func parseReferences(
    _ text: String, locatedBy locator: ScalarLocator, into diagnostics: inout Diagnostics
  ) -> Template? {
    // The stored bytes, read in place: a copy into an array was an allocation for every value.
    var text = text
    return text.withUTF8 { parseReferences(bytes: $0, locatedBy: locator, into: &diagnostics) }
  }

  private static func parseReferences(
    bytes: UnsafeBufferPointer<UInt8>, locatedBy locator: ScalarLocator, into diagnostics: inout Diagnostics
  ) -> Template? {
    let (dollar, open, close) = (UInt8(ascii: "$"), UInt8(ascii: "{"), UInt8(ascii: "}"))
    var parts: [Part] = []
    // Room for the usual `text ${reference}` at once, rather than growing the list at its second part; for
    // one part when the value looks like a reference alone (`${saved}`), the most common value of all.
    parts.reserveCapacity(bytes.first == dollar && bytes.last == close ? 1 : 2)
    var literal = ""
    var runStart = 0
    var index = 0
    // Kept apart until the text is known to be read here, so that the general reader reports them once.
    var found = Diagnostics()
    // Columns count Unicode scalars: the scalars before `countedTo`, counted as the reader moves on.
    var (countedTo, scalarsBefore) = (0, 0)
    func scalarOffset(_ byte: Int) -> Int {
      while countedTo < byte {
        if bytes[countedTo] & 0xC0 != 0x80 { scalarsBefore += 1 }
        countedTo += 1
      }
      return scalarsBefore
    }
    func piece(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    while index < bytes.count {
      switch bytes[index] {
      case dollar:
        if index + 2 < bytes.count, bytes[index + 1] == dollar, bytes[index + 2] == open {
          literal += piece(runStart..<index) + "${"
          index += 3
          runStart = index
          continue
        }
        guard index + 1 < bytes.count, bytes[index + 1] == open,
          let end = bytes[(index + 2)...].firstIndex(of: close)
        else { return nil }
        literal += piece(runStart..<index)
        if !literal.isEmpty { parts.append(.literal(literal)) }
        literal = ""
        let (first, last) = (scalarOffset(index), scalarOffset(end + 1))
        let span = locator.span(first, last)
        let insideBytes = bytes[(index + 2)..<end]
        // A plain ASCII reference (`${saved.title}`: no space, so no date arithmetic) is read on the bytes.
        if insideBytes.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
          guard let reference = Reference.parseASCII(insideBytes, span: span) else { return nil }
          parts.append(.reference(reference))
          index = end + 1
          runStart = index
          continue
        }
        let inside = piece((index + 2)..<end)
        let split = DateOffset.split(inside, locator: locator.shifted(by: first + 2), into: &found)
        switch split {
        case .none:
          guard let reference = Reference.parse(inside, span: span) else { return nil }
          parts.append(.reference(reference))
        case .offset(let base, let offset):
          guard var reference = Reference.parse(base, span: span) else { return nil }
          reference.dateOffset = offset
          parts.append(.reference(reference))
        case .invalid:
          parts.append(.literal("${\(inside)}"))
        }
        index = end + 1
        runStart = index
      case open:
        if index + 1 < bytes.count, bytes[index + 1] == open { return nil }
        index += 1
      default:
        index += 1
      }
    }
    literal += piece(runStart..<bytes.count)
    if !literal.isEmpty { parts.append(.literal(literal)) }
    for diagnostic in found.all { diagnostics.append(diagnostic) }
    return Template(parts: parts, span: locator.whole)
  }

  /// `$name` (shell, Perl) or `{{ name }}` (Jinja, Mustache) starting at `index`, as a reference spanning it.
  private static func lookalike(in scalars: [Unicode.Scalar], at index: Int, locator: ScalarLocator) -> Lookalike? {
    let start = index
    var end: Int
    let inside: String
    if scalars[index] == "$" {
      end = index + 1
      while end < scalars.count,
        scalars[end].properties.isAlphabetic || ("0"..."9").contains(scalars[end])
          || "_-.".unicodeScalars.contains(
            scalars[end])
      {
        end += 1
      }
      // A sentence may end right after the name: "costs $total."
      while end > index + 1, scalars[end - 1] == "." || scalars[end - 1] == "-" { end -= 1 }
      inside = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
    } else if scalars[index] == "{", index + 1 < scalars.count, scalars[index + 1] == "{" {
      var close = index + 2
      while close + 1 < scalars.count, !(scalars[close] == "}" && scalars[close + 1] == "}") { close += 1 }
      guard close + 1 < scalars.count else { return nil }
      end = close + 2
      var (from, to) = (index + 2, close)
      while from < to, scalars[from] == " " { from += 1 }
      while to > from, scalars[to - 1] == " " { to -= 1 }
      inside = String(String.UnicodeScalarView(scalars[from..<to]))
    } else {
      return nil
    }
    guard !inside.isEmpty, let parsed = Reference.parse(inside, span: locator.span(start, end)) else { return nil }
    return Lookalike(written: String(String.UnicodeScalarView(scalars[start..<end])), reference: parsed)
  }
}

extension Reference {
  /// Parses `name(.property|[index])*`; names are letters, digits, `_` and `-`, not starting with a digit.
  static func parse(_ text: String, span: SourceSpan) -> Reference? {
    var ascii = text
    if let reference = ascii.withUTF8({ bytes -> Reference?? in
      bytes.allSatisfy { $0 < 0x80 } ? .some(parseASCII(bytes[...], span: span)) : nil
    }) {
      return reference
    }
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func name() -> String? {
      let start = index
      while index < scalars.count,
        scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) || scalars[index] == "_"
          || scalars[index] == "-"
      {
        index += 1
      }
      guard index > start, !("0"..."9").contains(scalars[start]) else { return nil }
      return String(String.UnicodeScalarView(scalars[start..<index]))
    }
    guard let root = name() else { return nil }
    var path: [Component] = []
    while index < scalars.count {
      if scalars[index] == "." {
        index += 1
        guard let property = name() else { return nil }
        path.append(.property(property))
      } else if scalars[index] == "[" {
        let start = index + 1
        guard let close = scalars[start...].firstIndex(of: "]"),
          let number = Int(String(String.UnicodeScalarView(scalars[start..<close])))
        else { return nil }
        path.append(.index(number))
        index = close + 1
      } else {
        return nil
      }
    }
    return Reference(root: root, path: path, span: span)
  }
}

extension Reference {
  /// ``parse(_:span:)`` for ASCII text, on its bytes: the grammar is the same, letters being ASCII ones.
  /// Takes a slice so that a template's reader hands over the bytes between `${` and `}` as they are.
  fileprivate static func parseASCII(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, span: SourceSpan) -> Reference? {
    var index = bytes.startIndex
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    func name() -> String? {
      let start = index
      while index < bytes.endIndex {
        let byte = bytes[index] | 0x20
        guard
          (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || isDigit(bytes[index])
            || bytes[index] == UInt8(ascii: "_") || bytes[index] == UInt8(ascii: "-")
        else { break }
        index += 1
      }
      guard index > start, !isDigit(bytes[start]) else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
    guard let root = name() else { return nil }
    var path: [Component] = []
    while index < bytes.endIndex {
      if bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard let property = name() else { return nil }
        path.append(.property(property))
      } else if bytes[index] == UInt8(ascii: "[") {
        let start = index + 1
        guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "]")),
          let number = Int(String(decoding: bytes[start..<close], as: UTF8.self))
        else { return nil }
        path.append(.index(number))
        index = close + 1
      } else {
        return nil
      }
    }
    return Reference(root: root, path: path, span: span)
  }
}

/// Maps offsets inside a scalar's value back to the file.
///
/// Exact where the value is the text as written: plain and quoted scalars on one line without escapes.
/// Elsewhere (block scalars, folded lines, escapes) every position maps to the whole scalar, which is
/// still the right place, only less precise.
///
/// Cron expressions in `schedule:` use it too, so that a bad field is shown where it is written.
public struct ScalarLocator: Sendable {
  public let whole: SourceSpan
  /// The file column of the value's first character, when offsets map exactly.
  private var firstColumn: Int?

  /// A locator for text written on one line of `whole.file` from `firstColumn` on, such as a
  /// command-line argument shown as a file of its own.
  public init(whole: SourceSpan, firstColumn: Int?) {
    self.whole = whole
    self.firstColumn = firstColumn
  }

  public init(_ scalar: YAMLNode.Scalar) {
    whole = scalar.span
    let written = scalar.span.end.column - scalar.span.start.column
    // Scalars counted on the stored UTF-8, one for each byte that does not continue a scalar: walking
    // the string's scalars decodes each one, for every value of the file.
    let length =
      scalar.value.utf8.withContiguousStorageIfAvailable { bytes in bytes.count { $0 & 0xC0 != 0x80 } }
      ?? scalar.value.unicodeScalars.count
    let sameLine = scalar.span.start.line == scalar.span.end.line
    switch scalar.style {
    case .plain where sameLine && written == length:
      firstColumn = scalar.span.start.column
    case .singleQuoted where sameLine && written == length + 2,
      .doubleQuoted where sameLine && written == length + 2:
      firstColumn = scalar.span.start.column + 1
    default:
      firstColumn = nil
    }
  }

  /// A locator for the text that starts `offset` characters into this one.
  func shifted(by offset: Int) -> ScalarLocator {
    var shifted = self
    shifted.firstColumn = firstColumn.map { $0 + offset }
    return shifted
  }

  /// The span of the value's Unicode scalars `start..<end`.
  public func span(_ start: Int, _ end: Int) -> SourceSpan {
    guard let firstColumn else { return whole }
    // Made from `whole`, which names the file already: `SourceSpan(file:…)` would look the file up.
    var span = whole
    span.start = SourceLocation(line: whole.start.line, column: firstColumn + start)
    span.end = SourceLocation(line: whole.start.line, column: firstColumn + end)
    return span
  }
}
