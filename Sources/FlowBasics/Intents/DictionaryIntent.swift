import FlowIntents

/// Makes a dictionary from a mapping (or from JSON text).
struct DictionaryIntent: AppIntent {
  static let title: LocalizedStringResource = "Dictionary"
  static let description = IntentDescription(
    "Pass on a dictionary of keys and values, written as a mapping or as JSON text.")

  @Parameter(title: "Entries", primary: true)
  var entries: FlowDictionary

  static var parameterSummary: some ParameterSummary {
    Summary("Dictionary \(\.$entries)")
  }

  func perform() async throws -> some ReturnsValue<FlowDictionary> {
    .result(value: entries)
  }
}
