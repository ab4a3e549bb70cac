import FlowIntents
import Foundation

/// Asks the person for a value (Shortcuts' Ask for Input) and passes on the answer.
struct AskIntent: AppIntent {
  static let title: LocalizedStringResource = "Ask for Input"
  static let description = IntentDescription(
    "Ask the person a question and pass on the answer, as text, a number, a URL, a date or yes/no. A date may be written as get-dates-from-input reads one: '2026-12-01 09:00', today, tomorrow, next monday, in 3 days."
  )
  static let prompts: IntentPrompts = .value

  @Parameter(title: "Prompt", primary: true)
  var prompt: String

  @Parameter(title: "Input Type", default: .text)
  var type: InputType

  @Parameter(title: "Default Answer")
  var defaultAnswer: String?

  @Dependency var prompter: any Prompter
  @Dependency var clock: any FlowClock

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
    let (clock, type) = (clock, type)
    let answer = try await Prompting.requestValue(request, prompter: prompter) { answer in
      guard type == .date, case .text(let text) = answer else { return try Coercion.coerce(answer, to: wanted) }
      return try Self.date(text, now: clock.now)
    }
    return .result(value: answer)
  }

  /// A date answer, read by get-dates-from-input's parser (one reader of dates a person writes), in the
  /// system's time zone: ISO 8601 or words such as 'tomorrow' and 'next monday'.
  static func date(_ text: String, now: Date) throws -> FlowValue {
    let calendar = try WorkflowCalendar.calendar(timeZone: nil)
    let words = text.trimmingCharacters(in: .whitespaces).lowercased()
    guard let date = GetDatesFromInputIntent.date(from: words, calendar: calendar, now: now) else {
      throw AppIntentError(
        .invalidValue, "'\(text)' is not a date",
        help: "write '2026-12-01', '2026-12-01 09:00', 'today', 'tomorrow', 'next monday' or 'in 3 days'")
    }
    return .date(date)
  }
}
