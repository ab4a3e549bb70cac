import FlowIntents

/// Items of a list drawn at random without repeats: a raffle, a sample, a shuffle.
///
/// Not `get-item`'s `item: random`, which takes one item: this draws `count` different items (all of them,
/// shuffled, with `count` at least the length), which `get-item` in a loop cannot do without repeats.
struct RandomItemIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Random Items from List"
  static let description = IntentDescription(
    "Draw items of a list at random, each at most once: one item by default, or a list of 'count' items (the whole list shuffled when 'count' is its length or more)."
  )

  /// One item of the list, or a list of them with `count`.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    guard let list = parameters["list"] else { return nil }
    return parameters["count"] == nil ? list.elementType : list
  }

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(
    title: "Count", description: "how many items to draw; the output is then a list", inclusiveRange: (1, 1_000_000))
  var count: Int?

  @Dependency var random: any RandomSource

  static var parameterSummary: some ParameterSummary {
    Summary("Get random items from \(\.$list)") {
      \.$count
    }
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    guard !list.isEmpty else { throw AppIntentError.failed("cannot draw an item from an empty list") }
    guard let count else { return .result(value: list[random.index(below: list.count)]) }
    // A partial Fisher–Yates shuffle: the first `count` places end up a uniform draw without repeats.
    var items = list
    let drawn = min(count, items.count)
    for place in 0..<drawn {
      items.swapAt(place, place + random.index(below: items.count - place))
    }
    return .result(value: .list(Array(items[0..<drawn])))
  }
}
