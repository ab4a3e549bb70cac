import FlowIntents

/// Makes a list of the given items.
struct ListIntent: AppIntent {
  static let title: LocalizedStringResource = "List"
  static let description = IntentDescription("Pass on a list of the given items.")

  /// `list: [a, b]` is a list of text, so `${letters[0].title}` can be checked.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    parameters["items"].map { .list($0.elementType) }
  }

  @Parameter(title: "Items", primary: true)
  var items: [FlowValue]

  static var parameterSummary: some ParameterSummary {
    Summary("List \(\.$items)")
  }

  func perform() async throws -> some ReturnsValue<[FlowValue]> {
    .result(value: items)
  }
}
