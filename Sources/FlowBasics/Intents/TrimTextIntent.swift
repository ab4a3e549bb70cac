import FlowIntents

/// Removes spaces, tabs and line breaks around a text.
struct TrimTextIntent: AppIntent {
  static let title: LocalizedStringResource = "Trim Whitespace"
  static let description = IntentDescription(
    "Remove spaces, tabs and line breaks from both ends of a text, or from its start or end only.")

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "From", default: .bothEnds)
  var from: TrimEnds

  static var parameterSummary: some ParameterSummary {
    Summary("Trim \(\.$text) at \(\.$from)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    let isBlank: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
    var trimmed = Substring(text)
    if from != .end { trimmed = trimmed.drop(while: isBlank) }
    if from != .start {
      while let last = trimmed.last, isBlank(last) { trimmed = trimmed.dropLast() }
    }
    return .result(value: String(trimmed))
  }
}
