import FlowIntents
import FoundationEssentials

/// The units `adjust-date` and `time-between` count in.
enum DateUnit: String, AppEnum {
  case seconds, minutes, hours, days, weeks, months, years

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Unit"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .seconds: "Seconds", .minutes: "Minutes", .hours: "Hours", .days: "Days", .weeks: "Weeks", .months: "Months",
    .years: "Years",
  ]

  var component: Calendar.Component {
    switch self {
    case .seconds: .second
    case .minutes: .minute
    case .hours: .hour
    case .days: .day
    case .weeks: .weekOfYear
    case .months: .month
    case .years: .year
    }
  }

  /// Its length in seconds when it has one: days, weeks, months and years are counted on the calendar.
  var seconds: Double? {
    switch self {
    case .seconds: 1
    case .minutes: 60
    case .hours: 3600
    default: nil
    }
  }
}
