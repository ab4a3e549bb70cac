import FlowDiagnostics
import FoundationEssentials

/// One workflow of the library, as `flow list` shows it.
public struct LibraryEntry: Sendable, Encodable {
  /// What `flow run NAME` takes: the file name without `.yml`.
  public var name: String
  public var file: String
  /// The workflow's `name:`.
  public var title: String?
  public var description: String?
  /// nil for a file that does not load.
  public var actions: Int?
  /// When it runs unattended; empty when it has no schedule.
  public var schedule: [Capabilities.Schedule]
  /// What else starts it by itself (`on:`); empty when nothing does.
  public var triggers: [Capabilities.TriggerUse] = []
  public var signature: SignatureStatus
  /// The last run's outcome; nil when it never ran, or while run history is not there to ask.
  public var lastRun: LastRun?
  /// How many errors `flow validate` finds in it; 0 for a workflow that runs.
  public var errors: Int

  public init(
    name: String, file: String, title: String?, description: String?, actions: Int?,
    schedule: [Capabilities.Schedule], signature: SignatureStatus, lastRun: LastRun?, errors: Int
  ) {
    self.name = name
    self.file = file
    self.title = title
    self.description = description
    self.actions = actions
    self.schedule = schedule
    self.signature = signature
    self.lastRun = lastRun
    self.errors = errors
  }
}

/// How a workflow's last run ended, from run history.
public struct LastRun: Sendable, Encodable {
  /// `succeeded`, `failed`, `cancelled`, …: run history's status names.
  public var status: String
  public var finished: Date

  public init(status: String, finished: Date) {
    self.status = status
    self.finished = finished
  }

  private enum CodingKeys: String, CodingKey { case status, finished }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(status, forKey: .status)
    try container.encode(SummaryLine.iso8601(finished), forKey: .finished)
  }
}

/// `flow list`: the library as a table that fits the terminal, the description taking what is left.
public struct LibraryTable: Sendable {
  /// The columns to fit in; nil when there is no width to fit (output piped to a file or a program,
  /// which has none): then every cell is whole and no column is left out, as `ps` and `ls -l` do.
  public var width: Int?
  public var colors: Bool

  public init(width: Int? = 80, colors: Bool = false) {
    self.width = width
    self.colors = colors
  }

  public func render(_ entries: [LibraryEntry], now: Date) -> String {
    let header = ["NAME", "ACTIONS", "TRIGGERS", "SIGNATURE", "LAST RUN", "DESCRIPTION"]
    let cells: [[TerminalText.Run]] = entries.map { entry in
      let invalid = entry.errors > 0
      return [
        TerminalText.Run(text: entry.name, style: .bold),
        // An invalid file says so in a column that is always there; the description may be cut or left out.
        invalid
          ? TerminalText.Run(text: "invalid", style: .alarm)
          : TerminalText.Run(text: entry.actions.map(String.init) ?? "—", style: .plain),
        TerminalText.Run(text: Self.triggers(entry) ?? "—", style: .plain),
        TerminalText.Run(text: Self.words(entry.signature), style: entry.signature.isAlarming ? .alarm : .plain),
        TerminalText.Run(
          text: entry.lastRun.map { "\($0.status) \(RelativeTime.since($0.finished, now: now))" } ?? "—",
          style: entry.lastRun.map { $0.status == "succeeded" ? .plain : .alarm } ?? .dim),
        invalid
          ? TerminalText.Run(text: "\(Count.of(entry.errors, "error")) (flow validate \(entry.name))", style: .alarm)
          : TerminalText.Run(
            text: entry.description ?? (entry.title == entry.name ? nil : entry.title) ?? "", style: .plain),
      ]
    }
    var widths = header.map { DisplayWidth.of($0) }
    // Measured as drawn: a control or invisible character takes the room of what shows it (`<U+200B>`).
    let rows = cells.map { $0.map { TerminalText.Run(text: TerminalSafe.text($0.text), style: $0.style) } }
    for row in rows {
      for (column, cell) in row.enumerated().dropLast() {
        widths[column] = max(widths[column], DisplayWidth.of(cell.text))
      }
    }
    // Long triggers give up columns to the description first, down to what still says something.
    let schedule = 2
    let width = width ?? .max / 2
    let shortfall = Self.comfortableDescription - (width - widths.dropLast().reduce(0) { $0 + $1 + 2 })
    if shortfall > 0 {
      widths[schedule] = min(widths[schedule], max(Self.minimumSchedule, widths[schedule] - shortfall))
    }
    let descriptionWidth = width - widths.dropLast().reduce(0) { $0 + $1 + 2 }
    // Too narrow for a useful description: leave the column out rather than wrap the table.
    let columns = descriptionWidth >= 12 ? header.count : header.count - 1
    var lines: [TerminalText.Line] = []
    var headerLine = TerminalText.Line()
    for column in 0..<columns {
      headerLine.append(header[column], .dim)
      if column < columns - 1 { headerLine.pad(to: widths[0...column].reduce(0) { $0 + $1 + 2 }) }
    }
    lines.append(headerLine)
    for row in rows {
      var line = TerminalText.Line()
      for column in 0..<columns {
        var cell = row[column]
        if column == header.count - 1 { cell.text = Self.truncated(cell.text, to: descriptionWidth) }
        if column == schedule { cell.text = Self.truncated(cell.text, to: widths[schedule]) }
        line.append(cell.text, cell.style)
        if column < columns - 1 { line.pad(to: widths[0...column].reduce(0) { $0 + $1 + 2 }) }
      }
      lines.append(line)
    }
    return lines.map { $0.painted(colors: colors) }.joined(separator: "\n") + "\n"
  }

  /// A signature in a few words: a column of the table, not the page `flow show` has for it. An unknown
  /// key is named by the start of its fingerprint, as git names a commit (the whole fingerprint, 50
  /// characters, took most of a terminal's width); `flow show` and `flow list --json` give all of it.
  static func words(_ signature: SignatureStatus) -> String {
    switch signature {
    case .unknownKey(let fingerprint):
      let prefix = "SHA256:"
      let digest = fingerprint.hasPrefix(prefix) ? fingerprint.dropFirst(prefix.count) : Substring(fingerprint)
      return "unknown key \(prefix)\(digest.prefix(8))\(digest.count > 8 ? "…" : "")"
    case .tampered: return "tampered"
    case .unsigned, .trusted, .malformed: return signature.words
    }
  }

  /// What starts the workflow by itself, on one line: its triggers short, then its schedule in words.
  static func triggers(_ entry: LibraryEntry) -> String? {
    let parts = entry.triggers.map(\.short) + [OutlineRenderer.summary(entry.schedule)].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// The description's width below which the triggers column is shortened.
  static let comfortableDescription = 30
  /// The narrowest the schedule column gets.
  static let minimumSchedule = 16

  /// `text` cut to `width` columns, with `…` where it was cut.
  static func truncated(_ text: String, to width: Int) -> String {
    guard DisplayWidth.of(text) > width else { return text }
    var out = ""
    for character in text {
      if DisplayWidth.of(out + String(character)) > width - 1 { break }
      out.append(character)
    }
    return out.trimmingWhitespace() + "…"
  }
}
