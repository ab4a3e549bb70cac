import FlowDiagnostics

/// Lines for a terminal: styled runs that are measured in display columns, wrapped at spaces, and painted
/// with ANSI colours only when asked.
struct TerminalText {
  /// How a run looks at a colour terminal.
  enum Style: Hashable {
    case plain
    case bold
    case dim
    case variable
    case ask
    case changes
    case deletes
    case contacts
    case alarm
    /// A workflow's palette colour, as a 256-colour index, in bold.
    case palette(Int)

    var code: String? {
      switch self {
      case .plain: nil
      case .bold: "1"
      case .dim: "2"
      case .variable: "36"
      case .ask: "35"
      case .changes: "33"
      case .deletes, .alarm: "1;31"
      case .contacts: "34"
      case .palette(let index): "1;38;5;\(index)"
      }
    }
  }

  /// One run of text in one style.
  struct Run: Hashable {
    var text: String
    var style: Style
  }

  /// A line being built.
  struct Line {
    private(set) var runs: [Run] = []
    /// The columns taken so far, kept as runs are appended: measuring is the costly part of a layout.
    private(set) var width = 0

    /// Text from a workflow is made safe here, the one door to the terminal: its control characters
    /// are shown, never obeyed (see `TerminalSafe`).
    mutating func append(_ text: String, _ style: Style = .plain) {
      guard !text.isEmpty else { return }
      let text = TerminalSafe.text(text)
      width += DisplayWidth.of(text)
      if let last = runs.last, last.style == style {
        runs[runs.count - 1].text += text
      } else {
        runs.append(Run(text: text, style: style))
      }
    }

    mutating func append(_ line: Line) {
      for run in line.runs { append(run.text, run.style) }
    }

    /// Spaces up to `column`.
    mutating func pad(to column: Int) {
      let missing = column - width
      if missing > 0 { append(String(repeating: " ", count: missing)) }
    }

    func painted(colors: Bool) -> String {
      var out = ""
      for run in runs {
        if colors, let code = run.style.code {
          out += "\u{1B}[\(code)m\(run.text)\u{1B}[0m"
        } else {
          out += run.text
        }
      }
      // Trailing spaces only ever come from padding; a line never ends in them.
      while out.hasSuffix(" ") { out.removeLast() }
      return out
    }
  }

  /// A line of text shown as written (a script): its spaces kept, cut into pieces of `width` columns after
  /// the last space that fits, never inside a word unless the word is wider than a line, so that
  /// `rm -rf ~/notes` never reads as `rm -rf ~/no` and `tes`. A piece that continues the line before it
  /// starts with `↪ `, so that a cut never reads as a line break in the script; nothing moves or
  /// disappears.
  static func verbatim(_ text: String, width: Int, style: Style) -> [Line] {
    let width = max(3, width)
    var pieces: [String] = []
    var piece: [Character] = []
    var columns: [Int] = []
    var used = 0
    for character in TerminalSafe.text(text) {
      let wide = DisplayWidth.of(String(character))
      let limit = pieces.isEmpty ? width : width - 2
      if used + wide > limit, !piece.isEmpty {
        // After the last space, when there is one past the start; otherwise a word wider than a line is cut.
        let cut = piece.lastIndex(of: " ").flatMap { $0 > 0 ? $0 + 1 : nil } ?? piece.count
        pieces.append(String(piece[..<cut]))
        piece = Array(piece[cut...])
        columns = Array(columns[cut...])
        used = columns.reduce(0, +)
      }
      piece.append(character)
      columns.append(wide)
      used += wide
    }
    pieces.append(String(piece))
    return pieces.enumerated().map { index, text in
      var line = Line()
      line.append(index == 0 ? text : "↪ " + text, style)
      return line
    }
  }

  /// Breaks `runs` into lines of at most `width` columns at spaces; a word wider than a line is cut.
  /// Spaces inside a line are kept as written; spaces where a line breaks are dropped.
  static func wrap(_ runs: [Run], width: Int) -> [Line] {
    let width = max(1, width)
    // Words and the spaces between them, each with its style.
    var tokens: [Run] = []
    for run in runs {
      var current = ""
      // Made safe before it is measured, so that a control character takes the column its picture does.
      for character in TerminalSafe.text(run.text) {
        if !current.isEmpty, (character == " ") != (current.last == " ") {
          tokens.append(Run(text: current, style: run.style))
          current = ""
        }
        current.append(character)
      }
      if !current.isEmpty { tokens.append(Run(text: current, style: run.style)) }
    }
    var lines: [Line] = []
    var line = Line()
    var pendingSpace: Run?
    var index = 0
    while index < tokens.count {
      if tokens[index].text.first == " " {
        pendingSpace = tokens[index]
        index += 1
        continue
      }
      // Words that touch (a chip and the quote after it) are placed as one, so a break never splits them.
      var group = [tokens[index]]
      index += 1
      while index < tokens.count, tokens[index].text.first != " " {
        group.append(tokens[index])
        index += 1
      }
      let groupWidth = group.reduce(0) { $0 + DisplayWidth.of($1.text) }
      let space = line.runs.isEmpty ? nil : pendingSpace
      if !line.runs.isEmpty, line.width + (space?.text.count ?? 0) + groupWidth > width {
        lines.append(line)
        line = Line()
      } else if let space {
        line.append(space.text, space.style)
      }
      pendingSpace = nil
      for run in group {
        if DisplayWidth.of(run.text) <= width - line.width {
          line.append(run.text, run.style)
          continue
        }
        // Wider than what is left: cut it, character by character.
        for character in run.text {
          if line.width + DisplayWidth.of(String(character)) > width, !line.runs.isEmpty {
            lines.append(line)
            line = Line()
          }
          line.append(String(character), run.style)
        }
      }
    }
    if !line.runs.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
