import FlowIntents
import FoundationEssentials

/// Keeps the items of a list that satisfy a comparison (Shortcuts' Find … Where).
struct FilterIntent: AppIntent {
  static let title: LocalizedStringResource = "Filter List"
  static let description = IntentDescription(
    "Keep the items of a list, or of their property, that satisfy a comparison ('contains' when a value is given), optionally only the first few; with neither, every item, for a 'where:' condition beside it to choose from."
  )

  /// The items kept are of the list's type.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    parameters["list"].map { .list($0.elementType) }
  }

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "Property", description: "An entity property or dictionary key to compare instead of the item.")
  var property: String?

  @Parameter(title: "Comparison", description: "How to compare; 'contains' when a value is given.")
  var comparison: FilterComparison?

  @Parameter(title: "Value")
  var value: FlowValue?

  @Parameter(title: "Limit", inclusiveRange: (1, 10_000))
  var limit: Int?

  static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError] {
    guard literals["comparison"] == .text("matches") else { return [:] }
    return TextPattern.problem(literals["value"]).map { ["value": $0] } ?? [:]
  }

  static var parameterSummary: some ParameterSummary {
    Summary("Filter \(\.$list) where \(\.$property) \(\.$comparison) \(\.$value)") {
      \.$limit
    }
  }

  func perform() async throws -> some ReturnsValue<[FlowValue]> {
    // Neither a comparison nor a value: every item (a step's `where:` does the choosing).
    guard let comparison = comparison ?? (value == nil ? nil : .contains) else {
      if property != nil {
        throw AppIntentError.failed(
          "'property' needs a 'comparison' to test it with", help: "add 'comparison:' and 'value:', or use 'where:'")
      }
      return .result(value: limit.map { Array(list.prefix($0)) } ?? list)
    }
    if comparison.needsValue, value == nil {
      throw AppIntentError.failed("'\(comparison.id)' needs a 'value' to compare with")
    }
    let pattern = try comparison == .matches ? TextPattern(value?.text ?? "", caseSensitive: false) : nil
    var kept: [FlowValue] = []
    for item in list {
      let subject = try ValueComparison.subject(of: item, property: property)
      if try keeps(subject, comparison, pattern: pattern) { kept.append(item) }
      if let limit, kept.count >= limit { break }
    }
    return .result(value: kept)
  }

  private func keeps(_ subject: FlowValue, _ comparison: FilterComparison, pattern: TextPattern?) throws -> Bool {
    let other = value ?? .nothing
    switch comparison {
    case .equals: return ValueComparison.equals(subject, other)
    case .notEquals: return !ValueComparison.equals(subject, other)
    case .contains: return contains(subject, other)
    case .doesNotContain: return !contains(subject, other)
    case .startsWith: return subject.text.lowercased().hasPrefix(other.text.lowercased())
    case .endsWith: return subject.text.lowercased().hasSuffix(other.text.lowercased())
    case .greaterThan: return ValueComparison.compare(subject, other) == .orderedDescending
    case .lessThan: return ValueComparison.compare(subject, other) == .orderedAscending
    case .matches: return !(try pattern?.matches(in: subject.text).isEmpty ?? true)
    case .isEmpty: return subject.isEmpty
    case .isNotEmpty: return !subject.isEmpty
    }
  }

  /// A list contains an equal item; a text contains the other's text, without regard to case.
  private func contains(_ subject: FlowValue, _ other: FlowValue) -> Bool {
    if case .list(let items) = subject { return items.contains { ValueComparison.equals($0, other) } }
    return subject.text.lowercased().contains(other.text.lowercased())
  }
}
