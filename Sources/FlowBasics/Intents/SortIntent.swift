import FlowIntents

/// Sorts a list by its items or by a property of them.
struct SortIntent: AppIntent {
  static let title: LocalizedStringResource = "Sort List"
  static let description = IntentDescription(
    "Sort a list by its items or by one of their properties: numbers as numbers, dates as dates, text without regard to case."
  )

  /// The items sorted are of the list's type.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    parameters["list"].map { .list($0.elementType) }
  }

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "By", description: "An entity property or dictionary key to sort by instead of the item.")
  var by: String?

  @Parameter(title: "Order", default: .ascending)
  var order: SortOrder

  static var parameterSummary: some ParameterSummary {
    Summary("Sort \(\.$list) by \(\.$by) \(\.$order)")
  }

  func perform() async throws -> some ReturnsValue<[FlowValue]> {
    let keyed = try list.enumerated().map {
      ($0.offset, $0.element, ValueComparison.SortKey(try ValueComparison.subject(of: $0.element, property: by)))
    }
    // Stable: equal items keep their order, so sorting twice by different keys composes.
    let sorted = keyed.sorted { lhs, rhs in
      let result = ValueComparison.compare(lhs.2, rhs.2)
      if result == .orderedSame { return lhs.0 < rhs.0 }
      return order == .ascending ? result == .orderedAscending : result == .orderedDescending
    }
    return .result(value: sorted.map(\.1))
  }
}
