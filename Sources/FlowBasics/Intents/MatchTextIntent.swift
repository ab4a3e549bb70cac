import FlowIntents

/// Finds the parts of a text that match a regular expression.
struct MatchTextIntent: AppIntent {
  static let title: LocalizedStringResource = "Match Text"
  static let description = IntentDescription("Find every part of a text that matches a regular expression, as a list.")

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

  func perform() async throws -> some ReturnsValue<[String]> {
    .result(value: try TextPattern(pattern, caseSensitive: caseSensitive).matches(in: text))
  }
}
