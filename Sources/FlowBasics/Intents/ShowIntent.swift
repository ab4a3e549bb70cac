import FlowIntents

/// Shows a value to the person (Shortcuts' Show Result) and passes it on.
struct ShowIntent: AppIntent {
  static let title: LocalizedStringResource = "Show Result"
  static let description = IntentDescription("Show text or any value to the person; a list shows one item per line.")

  @Parameter(title: "Content", primary: true)
  var content: FlowValue

  static var parameterSummary: some ParameterSummary {
    Summary("Show \(\.$content)")
  }

  func perform() async throws -> some ReturnsValue<FlowValue> & ProvidesDialog {
    .result(value: content, dialog: IntentDialog(stringLiteral: Self.render(content)))
  }

  /// A list one item per line (SPEC §3); anything else as its text.
  static func render(_ value: FlowValue) -> String {
    if case .list(let items) = value { return items.map(\.text).joined(separator: "\n") }
    return value.text
  }
}
