import FlowIntents

/// Removes repeated items from a list, keeping the first of each.
struct UniqueIntent: AppIntent {
  static let title: LocalizedStringResource = "Remove Duplicates"
  static let description = IntentDescription(
    "Keep the first of each item in a list, or of each value of a property: 'by: link' dedupes bookmarks.")

  /// The items kept are of the list's type.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    parameters["list"].map { .list($0.elementType) }
  }

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "By", description: "An entity property or dictionary key whose repeats are removed instead.")
  var by: String?

  static var parameterSummary: some ParameterSummary {
    Summary("Remove duplicates from \(\.$list) by \(\.$by)")
  }

  func perform() async throws -> some ReturnsValue<[FlowValue]> {
    var seen = Set<FlowValue>()
    var kept: [FlowValue] = []
    for item in list where seen.insert(try ValueComparison.subject(of: item, property: by)).inserted {
      kept.append(item)
    }
    return .result(value: kept)
  }
}
