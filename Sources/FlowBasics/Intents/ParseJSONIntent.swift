import FlowIntents

/// Turns JSON text into a dictionary, a list, or a single value.
struct ParseJSONIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Dictionary from Input"
  static let description = IntentDescription(
    "Read JSON text into a dictionary, a list, text, a number, a boolean or nothing, keeping keys in order.")

  @Parameter(title: "Text", primary: true)
  var text: String

  static var parameterSummary: some ParameterSummary {
    Summary("Parse \(\.$text) as JSON")
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    do {
      return .result(value: try JSON.parse(text))
    } catch {
      throw AppIntentError.failed(
        "the text is not JSON: \(error.message)", help: "check the text with 'show' before this step")
    }
  }
}
