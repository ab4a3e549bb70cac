import FlowDiagnostics
import FlowModel

/// Draws an ``Outline`` for a terminal: the header, inputs, schedule, the steps as nested blocks with box
/// drawing, what each step may change, delete or contact in the right margin, and what the workflow may do.
///
/// Everything fits `width` columns: sentences wrap at spaces, and box drawing is repeated on every line of
/// a block, never cut. When the terminal is too narrow for a margin, the margin's words go under the step.
/// Colour only when `colors` is on (the caller decides: a terminal, and no `NO_COLOR`).
public struct OutlineRenderer: Sendable {
  public var width: Int
  public var colors: Bool

  public init(width: Int = 80, colors: Bool = false) {
    self.width = width
    self.colors = colors
  }

  /// The narrowest a sentence gets beside the margin; below it the margin moves under the steps.
  static let minimumSentenceWidth = 28
  /// The narrowest a sentence is ever wrapped to, however deep the nesting: past it lines grow wider than
  /// the terminal rather than lose their boxes.
  static let minimumTextWidth = 12

  public func render(_ outline: Outline) -> String {
    var lines: [TerminalText.Line] = []
    lines += header(outline)
    if !outline.inputs.isEmpty {
      lines.append(TerminalText.Line())
      lines += inputs(outline.inputs)
    }
    let triggers = outline.capabilities.triggers
    if !triggers.isEmpty {
      // `on:`: every way it starts by itself, its schedule among them, then what happens when one fires.
      lines.append(TerminalText.Line())
      lines.append(title("Starts when"))
      for trigger in triggers {
        lines += wrapped([TerminalText.Run(text: trigger.words, style: .plain)], indent: 2, hanging: 2)
      }
      for entry in outline.schedule { lines += wrapped(Self.runs(Self.words(entry)), indent: 2, hanging: 2) }
      var policy = outline.capabilities.runPolicy == "ask" ? "asks with a notification first" : "runs immediately"
      if outline.capabilities.notifyWhenRun { policy += ", and notifies when it runs" }
      lines += wrapped([TerminalText.Run(text: "then \(policy)", style: .dim)], indent: 2, hanging: 2)
    } else if !outline.schedule.isEmpty {
      lines.append(TerminalText.Line())
      lines.append(title("Schedule"))
      for entry in outline.schedule { lines += wrapped(Self.runs(Self.words(entry)), indent: 2, hanging: 2) }
    }
    lines.append(TerminalText.Line())
    lines.append(title("Steps"))
    lines += StepsLayout(outline: outline, width: width).lines()
    if !outline.onFailure.isEmpty {
      var inner = outline
      inner.steps = outline.onFailure
      lines.append(TerminalText.Line())
      lines.append(title("If the run fails"))
      // Under its own title, numbered as in the file's `on-failure:` (1, 2.1), not `on-failure.1`.
      lines += StepsLayout(outline: inner, width: width, dropping: Step.onFailurePrefix).lines()
    }
    // Then every workflow it runs, each once, so that every step that can run is drawn.
    for nested in outline.workflows {
      var inner = outline
      inner.steps = nested.steps
      lines.append(TerminalText.Line())
      lines += wrapped(
        [
          TerminalText.Run(text: "Runs “\(nested.name)”", style: .bold),
          TerminalText.Run(text: " · \(nested.file)", style: .dim),
        ], indent: 0)
      lines += StepsLayout(outline: inner, width: width).lines()
    }
    lines.append(TerminalText.Line())
    lines.append(title("What it may do"))
    for item in CapabilityLines.lines(outline.capabilities) {
      lines += wrapped(Self.runs(item.text, base: Self.style(of: item.tone)), indent: 2, hanging: 2)
      for text in item.verbatim {
        lines += TerminalText.verbatim(text, width: max(Self.minimumTextWidth, width - 6), style: .plain)
          .map { Self.indented($0, by: 6) }
      }
    }
    return lines.map { $0.painted(colors: colors) }.joined(separator: "\n") + "\n"
  }

  // MARK: - Header

  private func header(_ outline: Outline) -> [TerminalText.Line] {
    var lines: [TerminalText.Line] = []
    let nameStyle = outline.color.flatMap(Self.palette).map(TerminalText.Style.palette) ?? .bold
    lines += wrapped([TerminalText.Run(text: outline.name, style: nameStyle)], indent: 0)
    if let description = outline.description {
      lines += wrapped([TerminalText.Run(text: description, style: .plain)], indent: 0)
    }
    var looks: [String] = []
    if let icon = outline.icon { looks.append("icon \(icon)") }
    if let color = outline.color { looks.append("color \(color)") }
    if !looks.isEmpty {
      lines += wrapped([TerminalText.Run(text: looks.joined(separator: " · "), style: .dim)], indent: 0)
    }
    if let phrases = outline.phrases {
      let said = phrases.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")
      lines += wrapped([TerminalText.Run(text: "flow do \(said)", style: .dim)], indent: 0)
    }
    let signatureStyle: TerminalText.Style = outline.summary.signature.isAlarming ? .alarm : .plain
    var summary = outline.summary.text
    let signature = outline.summary.signature.words
    if summary.hasSuffix(signature) { summary.removeLast(signature.count) }
    lines += wrapped(
      [TerminalText.Run(text: summary, style: .plain), TerminalText.Run(text: signature, style: signatureStyle)],
      indent: 0)
    return lines
  }

  private func inputs(_ inputs: [Outline.InputLine]) -> [TerminalText.Line] {
    var lines = [title("Input")]
    let nameWidth = inputs.map { DisplayWidth.of($0.name) }.max() ?? 0
    for input in inputs {
      var name = TerminalText.Line()
      name.append(input.name, .bold)
      var runs: [TerminalText.Run] = []
      var details: [[TerminalText.Run]] = []
      details.append([TerminalText.Run(text: input.type ?? "any type", style: .plain)])
      if let prompt = input.prompt { details.append([TerminalText.Run(text: "asks “\(prompt)”", style: .plain)]) }
      if let value = input.defaultValue {
        details.append([TerminalText.Run(text: "default ", style: .plain)] + Self.runs(value))
      }
      if input.askOnImport { details.append([TerminalText.Run(text: "asked on import", style: .plain)]) }
      for (index, detail) in details.enumerated() {
        if index > 0 { runs.append(TerminalText.Run(text: " · ", style: .dim)) }
        runs += detail
      }
      for (index, part) in TerminalText.wrap(runs, width: max(Self.minimumTextWidth, width - nameWidth - 4))
        .enumerated()
      {
        var line = TerminalText.Line()
        line.append("  ")
        if index == 0 { line.append(name) }
        line.pad(to: nameWidth + 4)
        line.append(part)
        lines.append(line)
      }
    }
    return lines
  }

  // MARK: - Parts

  private func title(_ text: String) -> TerminalText.Line {
    var line = TerminalText.Line()
    line.append(text, .bold)
    return line
  }

  /// `runs` wrapped to the width after `indent` columns; lines after the first get `hanging` more.
  private func wrapped(_ runs: [TerminalText.Run], indent: Int, hanging: Int = 0) -> [TerminalText.Line] {
    let first = TerminalText.wrap(runs, width: max(Self.minimumTextWidth, width - indent))
    guard first.count > 1, hanging > 0 else { return first.map { Self.indented($0, by: indent) } }
    // Re-wrap what follows the first line to the narrower hanging width.
    var lines = [Self.indented(first[0], by: indent)]
    let rest = TerminalText.wrap(
      Array(first.dropFirst().flatMap { $0.runs + [TerminalText.Run(text: " ", style: .plain)] }.dropLast()),
      width: max(Self.minimumTextWidth, width - indent - hanging))
    lines += rest.map { Self.indented($0, by: indent + hanging) }
    return lines
  }

  static func indented(_ line: TerminalText.Line, by columns: Int) -> TerminalText.Line {
    var out = TerminalText.Line()
    out.append(String(repeating: " ", count: columns))
    out.append(line)
    return out
  }

  /// A schedule entry as a person reads it: its words, then the expression and zone as written.
  static func words(_ schedule: Capabilities.Schedule) -> StyledText {
    var written = schedule.cron
    if let timezone = schedule.timezone { written += " (\(timezone))" }
    guard let words = schedule.words else { return StyledText([.init(.value, written)]) }
    return StyledText([.init(.value, words)]) + StyledText([.init(.placeholder, " · \(written)")])
  }

  /// The whole schedule on one line, for `flow list` and the card: "at 09:00, on Monday (Europe/Berlin)".
  static func summary(_ schedule: [Capabilities.Schedule]) -> String? {
    guard !schedule.isEmpty else { return nil }
    return schedule.map { entry in
      (entry.words ?? entry.cron) + (entry.timezone.map { " (\($0))" } ?? "")
    }.joined(separator: "; ")
  }

  /// Styled text as terminal runs: each kind of part in its style.
  static func runs(_ text: StyledText, base: TerminalText.Style = .plain) -> [TerminalText.Run] {
    text.parts.map { part in
      let style: TerminalText.Style =
        switch part.kind {
        case .text: base
        case .variable: .variable
        case .coercion, .placeholder: .dim
        case .value: base
        case .ask: .ask
        case .keyword: .bold
        }
      return TerminalText.Run(text: part.text, style: style)
    }
  }

  static func style(of tone: CapabilityLines.Tone) -> TerminalText.Style {
    switch tone {
    case .plain: .plain
    case .changes: .changes
    case .deletes: .deletes
    case .alarm: .alarm
    }
  }

  /// A 256-colour index for each palette name (`WorkflowFormat.colors`).
  static func palette(_ name: String) -> Int? {
    [
      "red": 196, "orange": 208, "yellow": 220, "green": 34, "mint": 121, "teal": 37, "cyan": 51, "blue": 33,
      "indigo": 63, "purple": 129, "pink": 205, "brown": 130, "gray": 245, "light-gray": 250, "dark-gray": 240,
    ][name]
  }
}

/// The steps, laid out: a column of positions, box drawing for blocks, sentences wrapped beside a right
/// margin that says what each step may do.
private struct StepsLayout {
  let outline: Outline
  let width: Int
  let positionWidth: Int
  let marginWidth: Int
  let useMargin: Bool
  /// What every position starts with and the gutter leaves out.
  let dropping: String

  init(outline: Outline, width: Int, dropping: String = "") {
    self.outline = outline
    self.width = width
    self.dropping = dropping
    let all = Self.flatten(outline.steps)
    positionWidth = (all.map { $0.step.position.count - dropping.count }.max() ?? 1) + 2
    marginWidth = all.compactMap { $0.step.mark.map { DisplayWidth.of($0.text) } }.max() ?? 0
    let deepest = all.map(\.depth).max() ?? 0
    let narrowest = width - positionWidth - 2 * (deepest + 1) - marginWidth - 2
    useMargin = marginWidth > 0 && narrowest >= OutlineRenderer.minimumSentenceWidth
  }

  static func flatten(_ steps: [OutlineStep], depth: Int = 0) -> [(step: OutlineStep, depth: Int)] {
    steps.flatMap { step in
      [(step, depth)] + step.branches.flatMap { flatten($0.steps, depth: depth + 1) }
    }
  }

  func lines() -> [TerminalText.Line] {
    outline.steps.isEmpty ? [OutlineRenderer.indented(plain("no steps", .dim), by: 2)] : steps(outline.steps, bars: "")
  }

  private func steps(_ steps: [OutlineStep], bars: String) -> [TerminalText.Line] {
    steps.flatMap { step($0, bars: bars) }
  }

  private func step(_ step: OutlineStep, bars: String) -> [TerminalText.Line] {
    let isBlock = step.end != nil
    var lines: [TerminalText.Line] = []
    // The sentence: beside the margin on its first line, or alone.
    let opener = isBlock ? "┌ " : ""
    let continuation = isBlock ? "│ " : ""
    let textWidth = max(
      OutlineRenderer.minimumTextWidth,
      width - positionWidth - DisplayWidth.of(bars) - DisplayWidth.of(opener) - (useMargin ? marginWidth + 2 : 0))
    let sentence = TerminalText.wrap(OutlineRenderer.runs(step.sentence), width: textWidth)
    for (index, part) in sentence.enumerated() {
      var line = gutter(index == 0 ? String(step.position.dropFirst(dropping.count)) : "", bars: bars)
      line.append(index == 0 ? opener : continuation, .dim)
      line.append(part)
      if index == 0, useMargin, let mark = step.mark {
        line.pad(to: width - marginWidth)
        line.append(mark.text, Self.style(of: mark))
      }
      lines.append(line)
    }
    // Annotations, under the sentence and a little further in.
    var annotations = step.annotations
    if !useMargin, let mark = step.mark {
      annotations.insert(.init(kind: .effect, text: StyledText(stringLiteral: mark.text)), at: 0)
    }
    for annotation in annotations {
      let base: TerminalText.Style =
        switch annotation.kind {
        case .unattended: .alarm
        case .effect: step.mark.map(Self.style) ?? .dim
        default: .dim
        }
      let runs = OutlineRenderer.runs(annotation.text, base: base)
      for part in TerminalText.wrap(runs, width: max(OutlineRenderer.minimumTextWidth, textWidth - 2)) {
        var line = gutter("", bars: bars)
        line.append(continuation + "  ", .dim)
        line.append(part)
        lines.append(line)
      }
    }
    // The blocks' branches, each after its label, then the closing line.
    for (index, branch) in step.branches.enumerated() {
      if index > 0 || branch.label != nil {
        let label = branch.label ?? StyledText()
        for (row, part) in TerminalText.wrap(OutlineRenderer.runs(label), width: textWidth).enumerated() {
          var line = gutter("", bars: bars)
          line.append(row == 0 ? "├ " : "│ ", .dim)
          line.append(part)
          lines.append(line)
        }
      }
      lines += steps(branch.steps, bars: bars + "│ ")
    }
    if let end = step.end {
      var line = gutter("", bars: bars)
      line.append("└ ", .dim)
      line.append(end, .bold)
      lines.append(line)
    }
    return lines
  }

  /// The position column and the bars of the blocks around a line.
  private func gutter(_ position: String, bars: String) -> TerminalText.Line {
    var line = TerminalText.Line()
    line.append(position, .dim)
    line.pad(to: positionWidth)
    line.append(bars, .dim)
    return line
  }

  private func plain(_ text: String, _ style: TerminalText.Style) -> TerminalText.Line {
    var line = TerminalText.Line()
    line.append(text, style)
    return line
  }

  static func style(of mark: OutlineStep.Mark) -> TerminalText.Style {
    switch mark.effect {
    case "destructive": .deletes
    case "changes", "unknown": .changes
    default: .contacts
    }
  }
}
