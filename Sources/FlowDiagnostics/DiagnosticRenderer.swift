/// The one place that turns diagnostics into the text a person reads (SPEC §4):
///
/// ```
/// save-and-tag.yml:14:7: error: unknown property 'titel' of Bookmark
///    14 |   - show: "Saved ${saved.titel}"
///       |                         ^~~~~
///       = help: did you mean 'title'?
/// ```
///
/// The gutter holds the line number right-aligned; tabs are expanded and wide characters count twice,
/// so the carets stand under the span however the line is written. Colour, when on, touches only the
/// severity word and the carets.
public struct DiagnosticRenderer: Sendable {
  public var colors: Bool

  public init(colors: Bool = false) {
    self.colors = colors
  }

  /// Every diagnostic in file order, then a line that counts them.
  public func render(_ diagnostics: Diagnostics) -> String {
    var out = diagnostics.sorted().map(render).joined()
    if let summary = Self.summary(of: diagnostics) { out += summary + "\n" }
    return out
  }

  /// "found 2 errors and 1 warning", or nil when there is nothing to count.
  public static func summary(of diagnostics: Diagnostics) -> String? {
    var parts: [String] = []
    if diagnostics.errorCount > 0 { parts.append(Count.of(diagnostics.errorCount, "error")) }
    if diagnostics.warningCount > 0 { parts.append(Count.of(diagnostics.warningCount, "warning")) }
    return parts.isEmpty ? nil : "found " + List.and(parts)
  }

  /// One diagnostic: the header line, the excerpt, its notes, then its help lines, each ending in a newline.
  public func render(_ diagnostic: Diagnostic) -> String {
    let lines = [diagnostic.span?.start.line ?? 0] + diagnostic.notes.compactMap { $0.span?.start.line }
    let width = max(4, String(lines.max() ?? 0).count)
    // Messages quote values from the file, which may hold control characters: shown, never obeyed.
    var out = header(
      diagnostic.path, diagnostic.span, severity(diagnostic.severity), TerminalSafe.text(diagnostic.message))
    if let span = diagnostic.span { out += excerpt(span, width: width, caretStyle: diagnostic.severity) }
    let indent = String(repeating: " ", count: width + 2)
    for note in diagnostic.notes {
      if let span = note.span {
        out += "\(indent)= \(paint("note", .bold)): \(span): \(TerminalSafe.text(note.message))\n"
        out += excerpt(span, width: width, caretStyle: .note)
      } else {
        out += "\(indent)= \(paint("note", .bold)): \(TerminalSafe.text(note.message))\n"
      }
    }
    for help in diagnostic.helps {
      out += "\(indent)= \(paint("help", .bold)): \(TerminalSafe.text(help))\n"
    }
    return out
  }

  // MARK: - Parts

  private func header(_ path: String?, _ span: SourceSpan?, _ severity: String, _ message: String) -> String {
    switch (span, path) {
    case let (span?, _): "\(span): \(severity): \(message)\n"
    case let (nil, path?): "\(path): \(severity): \(message)\n"
    case (nil, nil): "\(severity): \(message)\n"
    }
  }

  private func excerpt(_ span: SourceSpan, width: Int, caretStyle: Diagnostic.Severity) -> String {
    guard let text = span.file.line(span.start.line) else { return "" }
    let number = String(span.start.line)
    let gutter = String(repeating: " ", count: width - number.count + 1) + number
    let blank = String(repeating: " ", count: width + 1)
    let (shown, startColumn, endColumn) = Self.layout(text, span: span)
    let carets = "^" + String(repeating: "~", count: max(0, endColumn - startColumn - 1))
    let colour: Style = caretStyle == .error ? .red : caretStyle == .warning ? .yellow : .cyan
    let pad = String(repeating: " ", count: startColumn)
    return "\(gutter) | \(shown)\n\(blank) | \(pad)\(paint(carets, colour))\n"
  }

  /// The line as displayed (tabs expanded) and the display columns (0-based) where the span's carets start
  /// and end on it. A span that runs past this line is underlined to the line's end. A line wider than
  /// ``maxExcerptWidth`` is cut to a window around the span, marked with '…' where text is left out.
  static func layout(_ text: String, span: SourceSpan) -> (shown: String, start: Int, end: Int) {
    var pieces: [(text: String, width: Int)] = []
    var display = 0
    var start: Int?
    var end: Int?
    let lastColumn = span.end.line == span.start.line ? span.end.column : Int.max
    for (offset, scalar) in text.unicodeScalars.enumerated() {
      if offset + 1 == span.start.column { start = display }
      if offset + 1 == lastColumn { end = display }
      let piece =
        scalar == "\t" ? String(repeating: " ", count: 4 - display % 4) : TerminalSafe.scalar(scalar)
      // A tab, and an invisible character shown as `<U+200B>`, are as wide as what is drawn for them.
      let width = scalar == "\t" || TerminalSafe.isInvisible(scalar) ? piece.count : DisplayWidth.of(scalar)
      pieces.append((piece, width))
      display += width
    }
    let startDisplay = start ?? display
    let endDisplay = max(end ?? display, startDisplay + 1)
    guard display > maxExcerptWidth else {
      return (pieces.map(\.text).joined(), startDisplay, endDisplay)
    }
    // Keep some context before the span, then as much as fits.
    let windowStart = max(0, min(startDisplay - 20, display - maxExcerptWidth))
    let windowEnd = windowStart + maxExcerptWidth
    var shown = windowStart > 0 ? "…" : ""
    var column = 0
    for piece in pieces {
      if column >= windowStart, column + piece.width <= windowEnd { shown += piece.text }
      column += piece.width
    }
    if windowEnd < display { shown += "…" }
    let shift = windowStart - (windowStart > 0 ? 1 : 0)
    return (shown, startDisplay - shift, min(endDisplay, windowEnd) - shift)
  }

  /// The widest source line shown in full; wider ones (minified or generated files) are cut.
  static let maxExcerptWidth = 100

  // MARK: - Colour

  private enum Style: String {
    case red = "\u{1B}[1;31m"
    case yellow = "\u{1B}[1;33m"
    case cyan = "\u{1B}[1;36m"
    case bold = "\u{1B}[1m"
  }

  private func severity(_ severity: Diagnostic.Severity) -> String {
    switch severity {
    case .error: paint("error", .red)
    case .warning: paint("warning", .yellow)
    case .note: paint("note", .cyan)
    }
  }

  private func paint(_ text: String, _ style: Style) -> String {
    colors ? style.rawValue + text + "\u{1B}[0m" : text
  }
}

/// How many terminal columns a character takes: 0 for combining marks, 2 for wide East Asian characters
/// and emoji, 1 otherwise. Enough to keep carets aligned and `flow show`'s columns straight; not a full
/// wcwidth.
public enum DisplayWidth {
  /// The columns `text` takes at a terminal.
  public static func of(_ text: String) -> Int {
    let utf8 = text.utf8
    // ASCII text is as wide as it is long; only other text needs its characters looked up.
    if !utf8.contains(where: { $0 >= 0x80 }) { return utf8.count }
    return text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  public static func of(_ text: Substring) -> Int { of(String(text)) }

  public static func of(_ scalar: Unicode.Scalar) -> Int {
    // Most text is ASCII, and looking up Unicode properties costs far more than the rest of a layout.
    if scalar.isASCII { return 1 }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if properties.isEmojiPresentation { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}
