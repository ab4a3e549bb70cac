import FlowIntents

/// Writes a list of dictionaries (or entities) as CSV text with a header row.
struct MakeCSVIntent: AppIntent {
  static let title: LocalizedStringResource = "Make CSV"
  static let description = IntentDescription(
    "Write a list of dictionaries or entities as CSV with a header row (every key that appears, in the order first seen, or the columns named); fields are quoted as RFC 4180 says, lines end with a line feed."
  )

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "Columns", description: "The keys to write, in order; every key that appears when left out.")
  var columns: [String]?

  @Parameter(title: "Separator", default: ",")
  var separator: String

  static var parameterSummary: some ParameterSummary {
    Summary("Make CSV from \(\.$list)") {
      \.$columns
      \.$separator
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    guard separator.count == 1, let character = separator.first, character != "\"", !character.isNewline else {
      throw AppIntentError.failed(
        "'separator' must be one character other than a quote or a line break, not '\(separator)'",
        help: "use ',', ';' or \"\\t\"")
    }
    let rows = try list.enumerated().map { index, item -> FlowDictionary in
      guard case .dictionary(let row)? = try? Coercion.coerce(item, to: .dictionary) else {
        throw AppIntentError.failed(
          "item \(index + 1) is \(item.typeName), not a dictionary",
          help: "make-csv writes one row per dictionary or entity; make a dictionary with 'dictionary' first")
      }
      return row
    }
    var keys = columns ?? []
    if columns == nil {
      var seen = Set<String>()
      for row in rows { for key in row.keys where seen.insert(key).inserted { keys.append(key) } }
    }
    // LF line ends, as Linux tools and Go's encoding/csv write them; 'parse-csv' reads CRLF as well.
    var out = CSV.line(keys, separator: character) + "\n"
    for row in rows {
      out += CSV.line(keys.map { row[$0].map(Coercion.text(of:)) ?? "" }, separator: character) + "\n"
    }
    return .result(value: out)
  }
}
