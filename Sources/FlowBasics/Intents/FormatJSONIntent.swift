import FlowIntents

/// Writes a value as JSON text.
struct FormatJSONIntent: AppIntent {
  static let title: LocalizedStringResource = "Make JSON"
  static let description = IntentDescription(
    "Write a value as JSON text, indented by two spaces or compact on one line; dates and URLs become strings.")

  @Parameter(title: "Input", primary: true)
  var input: FlowValue

  @Parameter(title: "Style", default: .pretty)
  var style: JSONStyle

  static var parameterSummary: some ParameterSummary {
    Summary("Format \(\.$input) as \(\.$style) JSON")
  }

  func perform() async throws -> some ReturnsValue<String> {
    .result(value: JSON.encode(input, pretty: style == .pretty))
  }
}
