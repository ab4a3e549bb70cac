import FlowIntents
import FoundationEssentials

/// How many whole units lie between two dates.
struct TimeBetweenIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Time Between Dates"
  static let description = IntentDescription(
    "The whole seconds, minutes, hours, days, weeks, months or years from a start to an end date (negative when the end is earlier), counted on the calendar of a time zone, the system's when left out."
  )

  @Parameter(title: "Start", primary: true)
  var start: Date

  @Parameter(title: "End")
  var end: Date

  @Parameter(title: "Unit", default: .days)
  var unit: DateUnit

  @Parameter(title: "Time Zone", description: "An IANA name such as 'Europe/Paris'; the system's when left out.")
  var timeZone: String?

  static var parameterSummary: some ParameterSummary {
    Summary("\(\.$unit) between \(\.$start) and \(\.$end)") {
      \.$timeZone
    }
  }

  func perform() async throws -> some ReturnsValue<Int> {
    let calendar = try WorkflowCalendar.calendar(timeZone: timeZone)
    if let seconds = unit.seconds {
      // Whole units, toward zero, as the calendar counts the others.
      let count = (end.timeIntervalSince(start) / seconds).rounded(.towardZero)
      // Dates from outside can be any distance apart; a count past Int's range is refused, not converted.
      guard count.isFinite, abs(count) < 9e15 else {
        throw AppIntentError.failed("the dates are too far apart to count in \(unit.rawValue)")
      }
      return .result(value: Int(count))
    }
    let components = calendar.dateComponents([unit.component], from: start, to: end)
    return .result(value: components.value(for: unit.component) ?? 0)
  }
}
