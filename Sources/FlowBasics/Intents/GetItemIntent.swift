import FlowDiagnostics
import FlowIntents

/// Takes one item of a list: the first, the last, a random one, or the one at an index.
struct GetItemIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Item from List"
  static let description = IntentDescription(
    "Take the first, last, a random, or the nth item of a list (counting from 1; -1 is the last).")

  /// An item of a list of bookmarks is a bookmark.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    parameters["list"]?.elementType
  }

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "Item", default: .first)
  var item: ItemSpecifier

  @Parameter(title: "Index")
  var index: Int?

  @Dependency var random: any RandomSource

  static var parameterSummary: some ParameterSummary {
    Summary("Get \(\.$item) from \(\.$list)") {
      \.$index
    }
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    guard !list.isEmpty else { throw AppIntentError.failed("cannot get an item from an empty list") }
    switch item {
    case .first: return .result(value: list[0])
    case .last: return .result(value: list[list.count - 1])
    case .random: return .result(value: list[random.index(below: list.count)])
    case .index:
      guard let index else {
        throw AppIntentError.failed("'item: index' needs an 'index'", help: "add 'index: 1' for the first item")
      }
      // Counting from 1 as Shortcuts does; negative numbers count from the end.
      let position = index > 0 ? index - 1 : list.count + index
      guard index != 0, list.indices.contains(position) else {
        throw AppIntentError.failed(
          "index \(index) is out of range for a list of \(Count.of(list.count, "item"))",
          help: "use 1 to \(list.count), or -1 for the last item")
      }
      return .result(value: list[position])
    }
  }
}
