import FlowIntents

/// Asks the person for a value (Shortcuts' Ask for Input) and passes on the answer.
struct AskIntent: AppIntent {
  static let title: LocalizedStringResource = "Ask for Input"
  static let description = IntentDescription(
    "Ask the person a question and pass on the answer, as text, a number, a URL, a date or yes/no.")
  static let prompts: IntentPrompts = .value

  @Parameter(title: "Prompt", primary: true)
  var prompt: String

  @Parameter(title: "Input Type", default: .text)
  var type: InputType

  @Parameter(title: "Default Answer")
  var defaultAnswer: String?

  @Dependency var prompter: any Prompter

  static var parameterSummary: some ParameterSummary {
    Summary("Ask \(\.$prompt)") {
      \.$type
      \.$defaultAnswer
    }
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let wanted = type.valueType
    let request = ValueRequest(
      kind: .question, origin: PromptOrigin(intentID: "ask"), dialog: prompt, valueType: wanted,
      defaultAnswer: defaultAnswer.map(FlowValue.text))
    let answer = try await Prompting.requestValue(request, prompter: prompter) { answer in
      try Coercion.coerce(answer, to: wanted)
    }
    return .result(value: answer)
  }
}
