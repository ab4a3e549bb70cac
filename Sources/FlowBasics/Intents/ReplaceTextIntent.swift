import FlowIntents
import FoundationEssentials

/// Replaces every occurrence of a text, or of a regular expression, in a text.
struct ReplaceTextIntent: AppIntent {
  static let title: LocalizedStringResource = "Replace Text"
  static let description = IntentDescription(
    "Replace every occurrence of a text or a regular expression; '$1' in the replacement refers to a group.")

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "Find")
  var find: String

  @Parameter(title: "Replacement", default: "")
  var replacement: String

  @Parameter(title: "Case Sensitive", default: true)
  var caseSensitive: Bool

  @Parameter(title: "Regular Expression", default: false)
  var regularExpression: Bool

  static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError] {
    guard literals["regular-expression"] == .boolean(true) else { return [:] }
    return TextPattern.problem(literals["find"]).map { ["find": $0] } ?? [:]
  }

  static var parameterSummary: some ParameterSummary {
    Summary("Replace \(\.$find) with \(\.$replacement) in \(\.$text)") {
      \.$caseSensitive
      \.$regularExpression
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    if regularExpression {
      let pattern = try TextPattern(find, caseSensitive: caseSensitive)
      return .result(value: try pattern.replacing(in: text, with: replacement))
    }
    // Nothing to find is nothing replaced, as in Foundation (a pattern would match between every two
    // characters); the replacement is taken as written ('$' and '\\' escaped out of the template).
    guard !find.isEmpty else { return .result(value: text) }
    let pattern = try TextPattern(literal: find, caseSensitive: caseSensitive)
    return .result(value: try pattern.replacing(in: text, with: TextPattern.literalTemplate(replacement)))
  }
}
