import FlowIntents
import FoundationEssentials

/// The Gregorian calendar in a named time zone, or the system's (TZ) when none is named: the zone a
/// workflow's dates are counted in by 'adjust-date' and 'time-between'.
enum WorkflowCalendar {
  static func calendar(timeZone name: String?) throws -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US_POSIX")
    if let name {
      guard let zone = TimeZone(identifier: name) else {
        throw AppIntentError.failed(
          "unknown time zone '\(name)'", help: "use an IANA name such as 'UTC' or 'Europe/Paris'")
      }
      calendar.timeZone = zone
    } else {
      calendar.timeZone = .current
    }
    return calendar
  }
}
