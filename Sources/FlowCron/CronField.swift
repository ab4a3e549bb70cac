/// The five fields of a cron expression, in order, with the values and names each accepts (crontab(5)).
enum CronField: Int, CaseIterable, Sendable {
  case minute, hour, dayOfMonth, month, dayOfWeek

  /// The field's name in messages: "hour must be 0–23".
  var name: String {
    switch self {
    case .minute: "minute"
    case .hour: "hour"
    case .dayOfMonth: "day of month"
    case .month: "month"
    case .dayOfWeek: "day of week"
    }
  }

  /// The numbers the field accepts; day of week takes 0–7, 0 and 7 both being Sunday.
  var range: ClosedRange<Int> {
    switch self {
    case .minute: 0...59
    case .hour: 0...23
    case .dayOfMonth: 1...31
    case .month: 1...12
    case .dayOfWeek: 0...7
    }
  }

  /// How many distinct values the field has: the largest useful step.
  var width: Int {
    self == .dayOfWeek ? 7 : range.count
  }

  /// The three-letter names the field accepts, any case, and the number each stands for.
  var names: [String] {
    switch self {
    case .month: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    case .dayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
    default: []
    }
  }

  /// The number a name stands for: JAN is 1, SUN is 0.
  func value(ofName name: String) -> Int? {
    names.firstIndex(of: name.uppercased()).map { self == .month ? $0 + 1 : $0 }
  }

  /// Full English names people write instead ("Monday", "march"), for the suggestion.
  var fullNames: [String] {
    switch self {
    case .month:
      [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
      ]
    case .dayOfWeek: ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    default: []
    }
  }

  /// "hour must be 0–23", "month must be 1–12 or JAN–DEC".
  var rangeRule: String {
    switch self {
    case .month: "month must be 1–12 or JAN–DEC"
    case .dayOfWeek: "day of week must be 0–7 (0 and 7 are Sunday) or SUN–SAT"
    default: "\(name) must be \(range.lowerBound)–\(range.upperBound)"
    }
  }
}
