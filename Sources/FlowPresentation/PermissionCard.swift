/// The card `flow import` shows before a shared workflow joins the library (issue 9): what it is, who
/// signed it, and everything it may do, from the same capability analysis `flow show` ends with.
///
/// Drawn with a bar down its left edge so that it stands apart from the questions after it; lines fit
/// `width`; colour only when `colors` is on, where what deletes, changes or acts without asking is red or
/// yellow, as in `flow show`.
public struct PermissionCard: Sendable {
  public var width: Int
  public var colors: Bool

  public init(width: Int = 80, colors: Bool = false) {
    self.width = width
    self.colors = colors
  }

  /// - Parameters:
  ///   - source: where the file came from, as given.
  ///   - sourceIsFile: whether `source` is a path `flow show` can read (not a URL or standard input).
  public func render(_ outline: Outline, source: String, sourceIsFile: Bool = true) -> String {
    var lines: [TerminalText.Line] = []
    let inner = max(OutlineRenderer.minimumTextWidth, width - 2)
    /// Lines after the first of a wrapped item go `hanging` columns further in, so items stand apart.
    func add(_ runs: [TerminalText.Run], indent: Int = 0, hanging: Int = 0) {
      let width = max(OutlineRenderer.minimumTextWidth, inner - indent - hanging)
      for (index, part) in TerminalText.wrap(runs, width: width).enumerated() {
        var line = bar()
        line.append(String(repeating: " ", count: indent + (index == 0 ? 0 : hanging)))
        line.append(part)
        lines.append(line)
      }
    }
    func blank() { lines.append(bar()) }

    var top = TerminalText.Line()
    top.append("┌ ", .dim)
    top.append("Import ", .bold)
    top.append(
      "“\(outline.name)”", outline.color.flatMap(OutlineRenderer.palette).map(TerminalText.Style.palette) ?? .bold)
    lines.append(top)
    add([TerminalText.Run(text: "from \(source)", style: .dim)])
    if let description = outline.description { add([TerminalText.Run(text: description, style: .plain)]) }
    var summary = outline.summary.text
    let signature = outline.summary.signature.words
    if summary.hasSuffix(signature) { summary.removeLast(signature.count) }
    add([
      TerminalText.Run(text: summary, style: .plain),
      TerminalText.Run(text: signature, style: outline.summary.signature.isAlarming ? .alarm : .plain),
    ])
    switch outline.summary.signature {
    case .unknownKey:
      add(
        [
          TerminalText.Run(
            text:
              "nobody you trust signed it: check the fingerprint with the person who sent it; "
              + "'flow keys trust KEY --name NAME' remembers their key",
            style: .dim)
        ], indent: 2)
    case .unsigned:
      add([TerminalText.Run(text: "nobody vouches for who wrote it: read what it may do", style: .dim)], indent: 2)
    case .trusted, .tampered, .malformed:
      // A tampered or malformed file is refused before any card; the summary line says it in red.
      break
    }

    blank()
    add([TerminalText.Run(text: "Actions", style: .bold)])
    add([TerminalText.Run(text: Self.actions(outline.steps), style: .plain)], indent: 2, hanging: 2)
    if !outline.onFailure.isEmpty {
      add(
        [
          TerminalText.Run(text: "if the run fails: ", style: .plain),
          TerminalText.Run(text: Self.actions(outline.onFailure), style: .plain),
        ], indent: 2, hanging: 2)
    }
    // Every workflow that will run, not only the top one: each on a line of its own, by file, in red
    // when it does not travel in the file.
    for nested in outline.workflows {
      add(
        [
          TerminalText.Run(text: "in \(nested.file): ", style: nested.carried ? .plain : .alarm),
          TerminalText.Run(text: Self.actions(nested.steps), style: .plain),
        ], indent: 2, hanging: 2)
    }

    blank()
    add([TerminalText.Run(text: "What it may do", style: .bold)])
    for item in CapabilityLines.lines(outline.capabilities, schedule: true, shared: true) {
      add(OutlineRenderer.runs(item.text, base: OutlineRenderer.style(of: item.tone)), indent: 2, hanging: 2)
      for text in item.verbatim {
        for part in TerminalText.verbatim(text, width: max(OutlineRenderer.minimumTextWidth, inner - 6), style: .plain)
        {
          var line = bar()
          line.append("      ")
          line.append(part)
          lines.append(line)
        }
      }
    }
    let questions = outline.inputs.filter(\.askOnImport)
    if !questions.isEmpty {
      blank()
      add([
        TerminalText.Run(text: "Asked now, kept as defaults: ", style: .bold),
        TerminalText.Run(text: questions.map(\.name).joined(separator: ", "), style: .plain),
      ])
    }
    let show = sourceIsFile ? "'flow show \(source)' draws" : "save the file, and 'flow show FILE' draws"
    let closing = [TerminalText.Run(text: "\(show) every step", style: .dim)]
    for (index, part) in TerminalText.wrap(closing, width: inner).enumerated() {
      var line = TerminalText.Line()
      line.append(index == 0 ? "└ " : "  ", .dim)
      line.append(part)
      lines.append(line)
    }
    return lines.map { $0.painted(colors: colors) }.joined(separator: "\n") + "\n"
  }

  private func bar() -> TerminalText.Line {
    var line = TerminalText.Line()
    line.append("│ ", .dim)
    return line
  }

  /// The actions a workflow uses, in the order met, each once with how many steps use it:
  /// "raindrop.get-bookmarks, if, stop, show ×2".
  static func actions(_ steps: [OutlineStep]) -> String {
    var order: [String] = []
    var counts: [String: Int] = [:]
    func visit(_ steps: [OutlineStep]) {
      for step in steps {
        let name = step.action ?? step.kind.name
        if counts[name] == nil { order.append(name) }
        counts[name, default: 0] += 1
        for branch in step.branches { visit(branch.steps) }
      }
    }
    visit(steps)
    guard !order.isEmpty else { return "none" }
    return order.map { name in
      let count = counts[name, default: 1]
      return count > 1 ? "\(name) ×\(count)" : name
    }
    .joined(separator: ", ")
  }
}
