import FlowIntents
import FoundationEssentials

/// Asks the person for a value (Shortcuts' Ask for Input) and passes on the answer.
struct AskIntent: AppIntent {
  static let title: LocalizedStringResource = "Ask for Input"
  static let description = IntentDescription(
    "Ask the person a question and pass on the answer, as text, a number, a URL, a date or yes/no. A date may be written as get-dates-from-input reads one: '2026-12-01 09:00', today, tomorrow, next monday, in 3 days, in the system's time zone; date inputs and date parameters asked for take the same words. With allow-multiple-lines, a text answer may hold several lines (at a terminal it ends with an empty line)."
  )
  static let prompts: IntentPrompts = .value

  @Parameter(title: "Prompt", primary: true)
  var prompt: String

  @Parameter(title: "Input Type", default: .text)
  var type: InputType

  @Parameter(title: "Default Answer")
  var defaultAnswer: String?

  @Parameter(title: "Allow Multiple Lines", default: false)
  var allowMultipleLines: Bool

  @Dependency var prompter: any Prompter
  @Dependency var clock: any FlowClock

  static var parameterSummary: some ParameterSummary {
    Summary("Ask \(\.$prompt)") {
      \.$type
      \.$defaultAnswer
      \.$allowMultipleLines
    }
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let wanted = type.valueType
    var request = ValueRequest(
      kind: .question, origin: PromptOrigin(intentID: "ask"), dialog: prompt, valueType: wanted,
      defaultAnswer: defaultAnswer.map(FlowValue.text))
    request.multiline = allowMultipleLines && wanted == .text
    let clock = clock
    let answer = try await Prompting.requestValue(request, prompter: prompter) { answer in
      // A date is read as get-dates-from-input reads one, in the system's time zone.
      try Coercion.coerce(DateWords.reading(answer, as: wanted, now: clock.now), to: wanted)
    }
    return .result(value: answer)
  }
}
