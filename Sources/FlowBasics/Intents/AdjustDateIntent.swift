import FlowIntents
import FoundationEssentials

/// Adds time to a date, or subtracts it, in seconds to years.
struct AdjustDateIntent: AppIntent {
  static let title: LocalizedStringResource = "Adjust Date"
  static let description = IntentDescription(
    "Add or subtract seconds, minutes, hours, or calendar days, weeks, months or years (which keep the time of day across daylight-saving changes; Jan 31 plus a month is Feb 28 or 29) in a time zone, the system's when left out."
  )

  @Parameter(title: "Date", primary: true)
  var date: Date

  @Parameter(title: "Operation", default: .add)
  var operation: DateOperation

  @Parameter(title: "Amount", default: 1)
  var amount: Double

  @Parameter(title: "Unit", default: .days)
  var unit: DateUnit

  @Parameter(title: "Time Zone", description: "An IANA name such as 'Europe/Paris'; the system's when left out.")
  var timeZone: String?

  static var parameterSummary: some ParameterSummary {
    Summary("\(\.$operation) \(\.$amount) \(\.$unit) to \(\.$date)") {
      \.$timeZone
    }
  }

  /// About 10,000 years either side of 1970, in seconds.
  static let farthestSeconds: Double = 10_000 * 366 * 86_400

  func perform() async throws -> some ReturnsValue<Date> {
    let calendar = try WorkflowCalendar.calendar(timeZone: timeZone)
    let signed = operation == .add ? amount : -amount
    guard signed.isFinite else {
      throw AppIntentError.failed("cannot adjust a date by \(FlowValue.formatNumber(amount))")
    }
    if let seconds = unit.seconds {
      // Within the calendar's years (as the other units are): a date 1e300 seconds away is no date, and
      // every step that measured or wrote it overflowed.
      let adjusted = date.addingTimeInterval(signed * seconds)
      guard abs(adjusted.timeIntervalSince1970) < Self.farthestSeconds else {
        throw AppIntentError.failed("the adjusted date is out of the calendar's range")
      }
      return .result(value: adjusted)
    }
    guard signed == signed.rounded(), abs(signed) < 1_000_000 else {
      throw AppIntentError.failed(
        "\(unit.rawValue) are added in whole numbers, not \(FlowValue.formatNumber(amount))",
        help: "use hours for parts of a day, such as 'amount: 36' with 'unit: hours'")
    }
    var components = DateComponents()
    components.setValue(Int(signed), for: unit.component)
    guard let adjusted = calendar.date(byAdding: components, to: date) else {
      throw AppIntentError.failed("the adjusted date is out of the calendar's range")
    }
    return .result(value: adjusted)
  }
}
