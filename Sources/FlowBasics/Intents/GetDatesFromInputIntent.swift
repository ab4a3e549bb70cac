import FlowIntents
import Foundation

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
      let text = line.trimmingCharacters(in: .whitespaces).lowercased()
      if text.isEmpty { continue }
      guard let date = Self.date(from: text, calendar: calendar, now: clock.now) else {
        throw AppIntentError.failed(
          "line \(number + 1): '\(line.trimmingCharacters(in: .whitespaces))' is not a date",
          help: "write '2026-12-01', '2026-12-01 09:00', 'tomorrow', 'next monday' or 'in 3 days'")
      }
      dates.append(date)
    }
    return .result(value: dates)
  }

  static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

  static func date(from text: String, calendar: Calendar, now: Date) -> Date? {
    let today = calendar.startOfDay(for: now)
    func days(_ count: Int) -> Date? { calendar.date(byAdding: .day, value: count, to: today) }
    switch text {
    case "now": return now
    case "today": return today
    case "tomorrow": return days(1)
    case "yesterday": return days(-1)
    default: break
    }
    let words = text.split(separator: " ").map(String.init)
    // 'next monday' is the first Monday after today; 'last monday' the last one before it.
    if words.count == 2, ["next", "last"].contains(words[0]), let weekday = weekdays.firstIndex(of: words[1]) {
      let current = calendar.component(.weekday, from: today) - 1
      var offset = (weekday - current + 7) % 7
      if words[0] == "next" { return days(offset == 0 ? 7 : offset) }
      offset = (current - weekday + 7) % 7
      return days(-(offset == 0 ? 7 : offset))
    }
    // 'in 3 days', '2 weeks ago'.
    let relative: (count: String, unit: String, sign: Int)? =
      if words.count == 3, words[0] == "in" { (words[1], words[2], 1) } else if words.count == 3, words[2] == "ago" {
        (words[0], words[1], -1)
      } else { nil }
    if let relative, let count = Int(relative.count) {
      let unit = relative.unit.hasSuffix("s") ? String(relative.unit.dropLast()) : relative.unit
      let components: [String: Calendar.Component] = [
        "minute": .minute, "hour": .hour, "day": .day, "week": .weekOfYear, "month": .month, "year": .year,
      ]
      guard let component = components[unit] else { return nil }
      // Minutes and hours count from now; days and longer from the start of today, like 'tomorrow'.
      let base = component == .minute || component == .hour ? now : today
      return calendar.date(byAdding: component, value: count * relative.sign, to: base)
    }
    return isoDate(text, calendar: calendar)
  }

  /// ISO 8601: with a zone as written, without one in the calendar's zone (what a person means by
  /// '2026-12-01 09:00').
  static func isoDate(_ text: String, calendar: Calendar) -> Date? {
    let zoned = ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mmXXXXX"]
    let local = [
      "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    ]
    for format in zoned + local {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = calendar.timeZone
      formatter.dateFormat = format
      formatter.isLenient = false
      if let date = formatter.date(from: text.uppercased()) { return date }
    }
    return nil
  }
}
