import FlowIntents

/// A note for whoever reads the workflow; does nothing when run.
struct CommentIntent: AppIntent {
  static let title: LocalizedStringResource = "Comment"
  static let description = IntentDescription("Leave a note in the workflow; running it does nothing.")

  @Parameter(title: "Text", primary: true)
  var text: String

  static var parameterSummary: some ParameterSummary {
    Summary("Comment: \(\.$text)")
  }

  func perform() async throws -> some IntentResult {
    .result()
  }
}
