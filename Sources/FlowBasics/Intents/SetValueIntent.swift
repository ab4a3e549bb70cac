import FlowIntents

/// Sets one key of a dictionary, adding it when it is new.
struct SetValueIntent: AppIntent {
  static let title: LocalizedStringResource = "Set Dictionary Value"
  static let description = IntentDescription(
    "Set a key of a dictionary to a value: a new key goes at the end, an existing one keeps its place.")

  @Parameter(title: "Dictionary", primary: true)
  var dictionary: FlowDictionary

  @Parameter(title: "Key")
  var key: String

  @Parameter(title: "Value")
  var value: FlowValue

  static var parameterSummary: some ParameterSummary {
    Summary("Set \(\.$key) to \(\.$value) in \(\.$dictionary)")
  }

  func perform() async throws -> some ReturnsValue<FlowDictionary> {
    guard !key.isEmpty else {
      throw AppIntentError.failed("'key' is empty", help: "name the key to set, such as 'key: title'")
    }
    var result = dictionary
    result[key] = value
    return .result(value: result)
  }
}
