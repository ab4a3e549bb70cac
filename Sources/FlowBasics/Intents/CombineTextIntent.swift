import FlowIntents

/// Joins the items of a list into one text.
struct CombineTextIntent: AppIntent {
  static let title: LocalizedStringResource = "Combine Text"
  static let description = IntentDescription(
    "Join the items of a list into one text, with spaces, new lines, commas, nothing or a custom separator between them."
  )

  @Parameter(title: "List", primary: true)
  var list: [String]

  @Parameter(title: "Separator", default: .spaces)
  var separator: TextSeparator

  @Parameter(title: "Custom Separator")
  var customSeparator: String?

  static var parameterSummary: some ParameterSummary {
    Summary("Combine \(\.$list) with \(\.$separator)") {
      \.$customSeparator
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    let glue: String
    switch separator {
    case .commas: glue = ", "
    case .everyCharacter, .nothing: glue = ""
    default: glue = try separator.text(custom: customSeparator) ?? ""
    }
    return .result(value: list.joined(separator: glue))
  }
}
