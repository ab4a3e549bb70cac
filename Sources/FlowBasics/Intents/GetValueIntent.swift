import FlowDiagnostics
import FlowIntents

/// Takes the value of a key in a dictionary (a JSON response, say).
struct GetValueIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Dictionary Value"
  static let description = IntentDescription(
    "Take the value of a key in a dictionary; a missing key is an error that names the keys there are.")

  @Parameter(title: "Dictionary", primary: true)
  var dictionary: FlowDictionary

  @Parameter(title: "Key")
  var key: String

  static var parameterSummary: some ParameterSummary {
    Summary("Get the value for \(\.$key) in \(\.$dictionary)")
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    guard let value = dictionary[key] else {
      throw AppIntentError.failed(
        "the dictionary has no key '\(key)'", help: Suggestion.help(for: key, among: dictionary.keys))
    }
    return .result(value: value)
  }
}
