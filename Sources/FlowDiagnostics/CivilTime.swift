/// Calendar arithmetic on the proleptic Gregorian calendar, on plain integers.
///
/// The next-fire search runs a million times a second; Foundation's `Calendar` costs microseconds per
/// call, so dates are days since 1970-01-01 and converted with Howard Hinnant's `days_from_civil` /
/// `civil_from_days` algorithms (exact for every year an `Int` can hold).
public enum CivilTime {
  public static let secondsPerDay: Int64 = 86_400

  /// Days since 1970-01-01 of the date `year`-`month`-`day` (month 1–12, day 1–31).
  public static func days(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of `days` since 1970-01-01.
  public static func date(days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
  }

  /// 0 for Sunday … 6 for Saturday, as cron counts (1970-01-01 was a Thursday).
  public static func weekday(days: Int64) -> Int {
    let remainder = Int((days + 4) % 7)
    return remainder < 0 ? remainder + 7 : remainder
  }

  public static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Floor division, for seconds before 1970.
  public static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }
}
