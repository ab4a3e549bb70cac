import FlowIntents

/// Lets the person pick one item of a list, or several.
struct ChooseFromListIntent: AppIntent {
  static let title: LocalizedStringResource = "Choose from List"
  static let description = IntentDescription(
    "Let the person pick an item of a list, or several, and pass on the choice.")
  static let prompts: IntentPrompts = .choice

  @Parameter(title: "List", primary: true)
  var list: [FlowValue]

  @Parameter(title: "Prompt")
  var prompt: String?

  @Parameter(title: "Select Multiple", default: false)
  var selectMultiple: Bool

  @Dependency var prompter: any Prompter

  static var parameterSummary: some ParameterSummary {
    Summary("Choose from \(\.$list)") {
      \.$prompt
      \.$selectMultiple
    }
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    guard !list.isEmpty else { throw AppIntentError.failed(Message.emptyList) }
    let chosen = try await prompter.requestChoice(
      ChoiceRequest(
        kind: .choice, origin: PromptOrigin(intentID: "choose-from-list", parameterKey: "list"),
        dialog: prompt ?? "Choose an item", options: list.map(Prompting.optionText(for:)),
        allowsMultiple: selectMultiple))
    let items = chosen.filter(list.indices.contains).map { list[$0] }
    guard !items.isEmpty else { throw AppIntentError.userCancelled }
    return .result(value: selectMultiple ? .list(items) : items[0])
  }
}

extension ChooseFromListIntent {
  /// The messages this action shows.
  enum Message {
    static let emptyList = "there is nothing to choose from: the list is empty"
  }
}
