import FlowIntents

/// Makes a text, usually from a template with magic variables in it.
struct TextIntent: AppIntent {
  static let title: LocalizedStringResource = "Text"
  /// `text: ${lines}` makes the lines into one text, as Shortcuts' Text action does.
  static let linesParameters: Set<String> = ["text"]
  static let description = IntentDescription("Pass on a text, usually written with magic variables in it.")

  @Parameter(title: "Text", primary: true)
  var text: String

  static var parameterSummary: some ParameterSummary {
    Summary("Text \(\.$text)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    .result(value: text)
  }
}
