import FlowDiagnostics
import FlowIntents

/// Reads CSV text into a list of dictionaries, one per row, keyed by the header row.
struct ParseCSVIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Dictionaries from CSV"
  static let description = IntentDescription(
    "Read CSV text (RFC 4180 quoting) into a list of dictionaries: the first row names the keys, every value is text."
  )

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(
    title: "Separator", description: "One character: ',' (the default), ';', or a tab written as \"\\t\".", default: ","
  )
  var separator: String

  static var parameterSummary: some ParameterSummary {
    Summary("Parse \(\.$text) as CSV") {
      \.$separator
    }
  }

  func perform() async throws -> some ReturnsValue<[FlowDictionary]> {
    guard separator.count == 1, let character = separator.first, character != "\"", !character.isNewline else {
      throw AppIntentError.failed(
        "'separator' must be one character other than a quote or a line break, not '\(separator)'",
        help: "use ',', ';' or \"\\t\"")
    }
    let records: [(line: Int, fields: [String])]
    do {
      records = try CSV.records(text, separator: character)
    } catch {
      throw AppIntentError.failed("the text is not CSV: line \(error.line): \(error.message)")
    }
    guard let header = records.first else { return .result(value: []) }
    var seen = Set<String>()
    for name in header.fields where !seen.insert(name).inserted {
      throw AppIntentError.failed(
        "the header row names '\(name)' twice", help: "every column needs its own name to be a dictionary key")
    }
    let rows = try records.dropFirst().map { record in
      guard record.fields.count == header.fields.count else {
        throw AppIntentError.failed(
          "line \(record.line) has \(Count.of(record.fields.count, "field")), the header has \(header.fields.count)",
          help: "quote fields that contain '\(separator)', such as \"a\(separator) b\"")
      }
      return FlowDictionary(zip(header.fields, record.fields).map { (key: $0, value: FlowValue.text($1)) })
    }
    return .result(value: rows)
  }
}
