import FlowIntents

/// Makes a list of the given items.
struct ListIntent: AppIntent {
  static let title: LocalizedStringResource = "List"
  static let description = IntentDescription("Pass on a list of the given items.")

  @Parameter(title: "Items", primary: true)
  var items: [FlowValue]

  static var parameterSummary: some ParameterSummary {
    Summary("List \(\.$items)")
  }

  func perform() async throws -> some ReturnsValue<[FlowValue]> {
    .result(value: items)
  }
}
