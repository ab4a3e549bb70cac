import FlowDiagnostics
import FlowIntents
import FoundationEssentials

/// Splits a text into a list of parts.
struct SplitTextIntent: AppIntent {
  static let title: LocalizedStringResource = "Split Text"
  static let description = IntentDescription(
    "Split a text into a list at new lines, spaces, commas, every character or a custom separator.")

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "Separator", default: .newLines)
  var separator: TextSeparator

  @Parameter(title: "Custom Separator")
  var customSeparator: String?

  static var parameterSummary: some ParameterSummary {
    Summary("Split \(\.$text) by \(\.$separator)") {
      \.$customSeparator
    }
  }

  func perform() async throws -> some ReturnsValue<[String]> {
    switch separator {
    case .everyCharacter:
      return .result(value: text.map(String.init))
    case .nothing:
      return .result(value: [text])
    case .spaces:
      // Runs of spaces and tabs separate words once, as a person means "split into words".
      return .result(value: text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))
    default:
      guard let separatorText = try separator.text(custom: customSeparator) else { return .result(value: [text]) }
      var parts = text.components(separatedBy: separatorText)
      if separator == .newLines, parts.last == "" { parts.removeLast() }  // a final line break ends a line
      if separator == .commas { parts = parts.map { $0.trimmingWhitespace() } }
      return .result(value: parts)
    }
  }
}
