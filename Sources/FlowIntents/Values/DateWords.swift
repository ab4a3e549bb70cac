import FlowDiagnostics
import FoundationEssentials

/// The one reader of dates a person writes: ISO 8601 or words such as 'tomorrow', 'next monday' and
/// 'in 3 days'. get-dates-from-input, `ask` with `type: date`, a date parameter asked for, and workflow
/// inputs of type date (given, asked or defaulted) all read through it, so they take the same words.
public enum DateWords {
  /// What to write instead, for every "is not a date".
  public static let help = "write '2026-12-01', '2026-12-01 09:00', 'today', 'tomorrow', 'next monday' or 'in 3 days'"

  /// The system's calendar, in which answers and inputs are read (a workflow has no zone of its own;
  /// the date actions take one as a parameter).
  public static var systemCalendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US_POSIX")
    calendar.timeZone = .current
    return calendar
  }

  /// `text` as a date, or "'someday' is not a date".
  public static func read(_ text: String, now: Date, calendar: Calendar = systemCalendar) throws(CoercionError)
    -> Date
  {
    let words = text.trimmingWhitespace().lowercased()
    guard let date = date(from: words, calendar: calendar, now: now) else {
      throw CoercionError(message: "'\(text.trimmingWhitespace())' is not a date", help: help)
    }
    return date
  }

  /// A value a person gave where `type` is wanted: text read as words when a date (or dates) is wanted,
  /// anything else unchanged for the usual coercion.
  public static func reading(_ value: FlowValue, as type: ValueType, now: Date) throws(CoercionError) -> FlowValue {
    switch (type, value) {
    case (.date, .text(let text)): return .date(try read(text, now: now))
    case (.list(.date), .list(let items)):
      var dates: [FlowValue] = []
      for item in items { dates.append(try reading(item, as: .date, now: now)) }
      return .list(dates)
    case (.list(.date), .text(let text)): return .list([.date(try read(text, now: now))])
    default: return value
    }
  }

  static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

  /// `text` (lower case, trimmed) as a date, or nil. Days start at midnight in `calendar`'s zone.
  public static func date(from text: String, calendar: Calendar, now: Date) -> Date? {
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
    // As in DateParsing: ASCII only.
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let zoned = ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mmXXXXX"]
    let local = [
      "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    ]
    for format in DateParsing.candidates(zoned + local, for: text) {
      let reader = UnicodeDateFormat(pattern: format, timeZone: calendar.timeZone.identifier)
      if let date = reader?.date(from: text.uppercased()) { return date }
    }
    return nil
  }
}
