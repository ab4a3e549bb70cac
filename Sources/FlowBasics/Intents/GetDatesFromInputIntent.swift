import FlowDiagnostics
import FlowIntents
import FoundationEssentials

/// Reads dates from text, one a line: ISO 8601 or words such as 'tomorrow' and 'in 3 days'.
struct GetDatesFromInputIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Dates from Input"
  static let description = IntentDescription(
    "Read one date a line: ISO 8601 ('2026-12-01', '2026-12-01 09:00', with a zone or in the time zone given), or now, today, tomorrow, yesterday, next monday, last friday, in 3 days, 2 weeks ago; days start at midnight."
  )

  @Parameter(title: "Input", primary: true)
  var input: String

  @Parameter(title: "Time Zone", description: "An IANA name such as 'Europe/Paris'; the system's when left out.")
  var timeZone: String?

  @Dependency var clock: any FlowClock

  static var parameterSummary: some ParameterSummary {
    Summary("Get dates from \(\.$input)") {
      \.$timeZone
    }
  }

  func perform() async throws -> some ReturnsValue<[Date]> {
    let calendar = try WorkflowCalendar.calendar(timeZone: timeZone)
    var dates: [Date] = []
    for (number, line) in input.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let text = line.trimmingWhitespace().lowercased()
      if text.isEmpty { continue }
      guard let date = DateWords.date(from: text, calendar: calendar, now: clock.now) else {
        throw AppIntentError.failed(
          "line \(number + 1): '\(line.trimmingWhitespace())' is not a date",
          help: DateWords.help)
      }
      dates.append(date)
    }
    return .result(value: dates)
  }
}
