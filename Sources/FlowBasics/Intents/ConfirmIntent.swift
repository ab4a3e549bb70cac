import FlowIntents

/// Asks the person to confirm before the workflow goes on (an alert with Cancel); declining stops the run.
struct ConfirmIntent: AppIntent {
  static let title: LocalizedStringResource = "Confirm"
  static let description = IntentDescription("Ask the person to confirm before going on; declining cancels the run.")
  static let prompts: IntentPrompts = .confirmation

  @Parameter(title: "Message", primary: true)
  var message: String

  @Dependency var prompter: any Prompter

  static var parameterSummary: some ParameterSummary {
    Summary("Confirm \(\.$message)")
  }

  func perform() async throws -> some IntentResult {
    let confirmed = try await prompter.requestConfirmation(
      ConfirmationRequest(kind: .alert, origin: PromptOrigin(intentID: "confirm"), dialog: message))
    if !confirmed { throw AppIntentError.userCancelled }
    return .result()
  }
}
