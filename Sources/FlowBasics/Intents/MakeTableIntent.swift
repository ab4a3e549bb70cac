import FlowDiagnostics
import FlowIntents
import FoundationEssentials

/// Lays a list of dictionaries or entities (Files, Bookmarks) out as a table, one row per item.
struct MakeTableIntent: AppIntent {
  static let title: LocalizedStringResource = "Make Table"
  static let description = IntentDescription(
    "Lay a list of dictionaries or entities (Files, Bookmarks…) out as a table, one row per item: a Markdown pipe table, or plain columns lined up with spaces. The columns are the keys named, or every key that appears, in the order first seen; the header is each key as a title ('mime-type' → 'Mime Type'). Numbers are aligned right; a '|' in a cell is escaped and line breaks become spaces."
  )

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "Columns", description: "The keys to show, in order; every key that appears when left out.")
  var columns: [String]?

  @Parameter(title: "Style", default: .markdown)
  var style: TableStyle

  @Parameter(title: "Limit", description: "At most this many rows, the first ones.", inclusiveRange: (1, 100_000))
  var limit: Int?

  static var parameterSummary: some ParameterSummary {
    Summary("Make a table of \(\.$list)") {
      \.$columns
      \.$style
      \.$limit
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    let items = limit.map { Array(list.prefix($0)) } ?? list
    let rows = try items.enumerated().map { index, item -> FlowDictionary in
      guard case .dictionary(let row)? = try? Coercion.coerce(item, to: .dictionary) else {
        throw AppIntentError.failed(
          "item \(index + 1) is \(item.typeName), not a dictionary or an entity",
          help: "make-table shows one row per dictionary, File or Bookmark; for a list of text use 'combine-text'")
      }
      return row
    }
    var keys = columns ?? []
    if columns == nil {
      var seen = Set<String>()
      for row in rows { for key in row.keys where seen.insert(key).inserted { keys.append(key) } }
    }
    guard !keys.isEmpty else { return .result(value: "") }
    let header = keys.map(Naming.title(fromKey:))
    // A column of numbers (empty cells aside) reads best aligned right.
    let numeric = keys.indices.map { column in
      rows.contains { $0[keys[column]].map(Self.isNumber) == true }
        && rows.allSatisfy { row in row[keys[column]].map { Self.isNumber($0) || $0.isEmpty } ?? true }
    }
    switch style {
    case .markdown:
      var lines = ["| " + header.joined(separator: " | ") + " |"]
      lines.append("|" + numeric.map { $0 ? " ---: |" : " --- |" }.joined())
      for row in rows {
        lines.append("| " + keys.map { Self.cell(row[$0] ?? .nothing) }.joined(separator: " | ") + " |")
      }
      return .result(value: lines.joined(separator: "\n"))
    case .plain:
      let plain = rows.map { row in keys.map { Self.text(row[$0] ?? .nothing) } }
      let widths = keys.indices.map { column in
        ([header[column]] + plain.map { $0[column] }).map(\.count).max() ?? 0
      }
      func line(_ row: [String]) -> String {
        row.enumerated().map { column, text in
          let padding = String(repeating: " ", count: widths[column] - text.count)
          return numeric[column] ? padding + text : text + padding
        }.joined(separator: "  ").trimmingTrailingSpaces()
      }
      return .result(value: ([line(header)] + plain.map(line)).joined(separator: "\n"))
    }
  }

  /// A value's text on one line.
  private static func text(_ value: FlowValue) -> String {
    String(Coercion.text(of: value).map { $0.isNewline ? " " : $0 })
  }

  /// A Markdown cell: one line, with '|' escaped so it stays in its column.
  private static func cell(_ value: FlowValue) -> String {
    text(value).replacingEvery("|", with: "\\|")
  }

  private static func isNumber(_ value: FlowValue) -> Bool {
    if case .number = value { return true }
    return false
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
