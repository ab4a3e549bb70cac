import FlowIntents

/// Finds the parts of a text that match a regular expression; with named groups, the fields of the first.
struct MatchTextIntent: AppIntent {
  static let title: LocalizedStringResource = "Match Text"
  static let description = IntentDescription(
    "Find every part of a text that matches a regular expression, as a list of text. A pattern with named groups, such as '(?<year>\\d{4})-(?<month>\\d\\d)', gives its first match instead, as a Match: its text, with each group as a property ('${match.year}'), or nothing when it does not match."
  )

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "Pattern")
  var pattern: String

  @Parameter(title: "Case Sensitive", default: true)
  var caseSensitive: Bool

  static var parameterSummary: some ParameterSummary {
    Summary("Match \(\.$pattern) in \(\.$text)") {
      \.$caseSensitive
    }
  }

  static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError] {
    TextPattern.problem(literals["pattern"]).map { ["pattern": $0] } ?? [:]
  }

  /// A pattern written out says which: a list of text, or a Match with its groups' names, so that
  /// `${match.yeer}` is an error before the run. A computed pattern may give either.
  static func outputType(given parameters: [String: ValueType], literals: [String: FlowValue]) -> ValueType? {
    guard case .text(let pattern)? = literals["pattern"] else { return .any }
    let names = TextPattern.groupNames(in: pattern)
    return names.isEmpty ? .list(.text) : matchType(names)
  }

  /// A Match: its `text`, and a text property per named group.
  static func matchType(_ names: [String]) -> ValueType {
    .entity(
      EntityType(name: "Match") {
        [PropertySchema(key: "text", title: "Text", type: .text)]
          + names.map { PropertySchema(key: $0, title: $0, type: .text) }
      })
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let compiled = try TextPattern(pattern, caseSensitive: caseSensitive)
    let names = TextPattern.groupNames(in: pattern)
    guard !names.isEmpty else { return .result(value: .list(try compiled.matches(in: text).map(FlowValue.text))) }
    guard let match = try compiled.firstMatch(in: text, groups: names) else { return .result(value: .nothing) }
    let properties =
      [(key: "text", value: FlowValue.text(match.text))]
      + zip(names, match.groups).map {
        (key: $0, value: FlowValue.text($1))
      }
    return .result(
      value: .entity(
        EntityValue(typeName: "Match", id: .text(match.text), title: match.text, properties: FlowDictionary(properties))
      ))
  }
}
