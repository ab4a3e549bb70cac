import FlowDiagnostics

/// A cron expression with Vixie cron's and cronie's meaning (crontab(5)): five fields — minute, hour,
/// day of month, month, day of week — or one of the macros `@hourly`, `@daily`, `@midnight`, `@weekly`,
/// `@monthly`, `@yearly`, `@annually`.
///
/// Each field is kept as a bitset of the values it allows, so matching a time is a few shifts and the
/// next-fire search can jump from one allowed value to the next. Parse one with
/// ``CronExpression/parse(_:locate:)``.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
  /// The expression as written, without surrounding blanks.
  public let text: String
  /// The macro it was written as (`@daily`), lowercased; nil for five fields.
  public let macro: String?

  /// Bit n is set when value n is allowed: minutes 0–59, hours 0–23, days of month 1–31, months 1–12,
  /// days of week 0–6 (Sunday is 0; 7 is folded into 0).
  let minutes: UInt64
  let hours: UInt64
  let daysOfMonth: UInt64
  let months: UInt64
  let daysOfWeek: UInt64

  /// Vixie cron's rule for the two day fields: when both are restricted a day matches if either does;
  /// when either field is written starting with `*` (`*`, `*/2`), both must match. Which is why `*/2`
  /// in day of month with a restricted day of week means "odd days that are also that weekday".
  let dayOfMonthStar: Bool
  let dayOfWeekStar: Bool

  /// cronie's "wildcard" job: the minute or the hour field starts with `*`. On daylight-saving days such
  /// a job follows elapsed time (it fires at both passes of a repeated hour and not in a skipped one),
  /// while a fixed-time job fires exactly once (see ``Schedule``).
  public let isWildcardTime: Bool

  init(
    text: String, macro: String?, minutes: UInt64, hours: UInt64, daysOfMonth: UInt64, months: UInt64,
    daysOfWeek: UInt64, dayOfMonthStar: Bool, dayOfWeekStar: Bool, isWildcardTime: Bool
  ) {
    self.text = text
    self.macro = macro
    self.minutes = minutes
    self.hours = hours
    self.daysOfMonth = daysOfMonth
    self.months = months
    // 7 is another name for Sunday.
    self.daysOfWeek = (daysOfWeek | (daysOfWeek >> 7)) & 0x7F
    self.dayOfMonthStar = dayOfMonthStar
    self.dayOfWeekStar = dayOfWeekStar
    self.isWildcardTime = isWildcardTime
  }

  public var description: String { text }

  /// The five fields with macros spelt out, for engines that take no macros.
  public var fields: String {
    switch macro {
    case "@hourly": "0 * * * *"
    case "@daily", "@midnight": "0 0 * * *"
    case "@weekly": "0 0 * * 0"
    case "@monthly": "0 0 1 * *"
    case "@yearly", "@annually": "0 0 1 1 *"
    default: text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
  }

  /// The allowed values of `field`, in order (day of week 0–6).
  func values(_ field: CronField) -> [Int] {
    let bits = bits(field)
    return (0..<64).filter { bits & (1 << UInt64($0)) != 0 }
  }

  func bits(_ field: CronField) -> UInt64 {
    switch field {
    case .minute: minutes
    case .hour: hours
    case .dayOfMonth: daysOfMonth
    case .month: months
    case .dayOfWeek: daysOfWeek
    }
  }

  /// Whether the day of month field restricts anything that Vixie's rule sees as restricted.
  var daysCombineWithOr: Bool { !dayOfMonthStar && !dayOfWeekStar }

  /// The days of `month` in `year` that match, as bits 1–31.
  func matchingDays(year: Int, month: Int) -> UInt64 {
    let length = CivilTime.daysIn(month: month, year: year)
    let firstWeekday = CivilTime.weekday(days: CivilTime.days(year: year, month: month, day: 1))
    // The weekday pattern rotated so that bit k stands for day k+1 of the month, repeated five weeks.
    let week = ((daysOfWeek >> UInt64(firstWeekday)) | (daysOfWeek << UInt64(7 - firstWeekday))) & 0x7F
    let weekdays = (week | week << 7 | week << 14 | week << 21 | week << 28) << 1
    let inMonth: UInt64 = ((1 << UInt64(length + 1)) - 1) & ~1
    let days = daysCombineWithOr ? daysOfMonth | weekdays : daysOfMonth & weekdays
    return days & inMonth
  }

  /// Whether the local wall-clock minute `localSeconds` (seconds since 1970-01-01 00:00 as if in UTC)
  /// matches. The next-fire search never asks this minute by minute; tests and benchmarks do.
  public func matches(localSeconds: Int64) -> Bool {
    let day = CivilTime.floorDivide(localSeconds, CivilTime.secondsPerDay)
    let second = Int(localSeconds - day * CivilTime.secondsPerDay)
    let (year, month, dayOfMonth) = CivilTime.date(days: day)
    return minutes & (1 << UInt64(second / 60 % 60)) != 0 && hours & (1 << UInt64(second / 3600)) != 0
      && months & (1 << UInt64(month)) != 0
      && matchingDays(year: year, month: month) & (1 << UInt64(dayOfMonth)) != 0
  }

  /// The first matching local minute at or after `localSeconds`, as local seconds; nil when none comes
  /// within 400 years (a fire that needs Feb 29 on a given weekday comes within 40).
  ///
  /// Jumps field by field — month, day, hour, minute — to the next allowed value with one bit scan each,
  /// so a search costs a handful of steps whatever the gap between fires.
  public func nextLocal(atOrAfter localSeconds: Int64) -> Int64? {
    let startMinute = CivilTime.floorDivide(localSeconds + 59, 60)
    let startDay = CivilTime.floorDivide(startMinute, 1440)
    var (year, month, day) = CivilTime.date(days: startDay)
    let minuteOfDay = Int(startMinute - startDay * 1440)
    var hour = minuteOfDay / 60
    var minute = minuteOfDay % 60
    let lastYear = year + 400

    func nextMonth() {
      day = 1
      hour = 0
      minute = 0
      if let next = Self.nextBit(months, from: month + 1) {
        month = next
      } else {
        year += 1
        month = Self.nextBit(months, from: 1) ?? 1
      }
    }

    while year <= lastYear {
      guard months & (1 << UInt64(month)) != 0 else {
        nextMonth()
        continue
      }
      guard let matchingDay = Self.nextBit(matchingDays(year: year, month: month), from: day) else {
        nextMonth()
        continue
      }
      if matchingDay != day {
        day = matchingDay
        hour = 0
        minute = 0
      }
      guard let matchingHour = Self.nextBit(hours, from: hour) else {
        day += 1
        hour = 0
        minute = 0
        continue
      }
      if matchingHour != hour {
        hour = matchingHour
        minute = 0
      }
      guard let matchingMinute = Self.nextBit(minutes, from: minute) else {
        hour += 1
        minute = 0
        if hour > 23 {
          day += 1
          hour = 0
        }
        continue
      }
      let days = CivilTime.days(year: year, month: month, day: day)
      return days * CivilTime.secondsPerDay + Int64(hour * 3600 + matchingMinute * 60)
    }
    return nil
  }

  /// The lowest set bit at or above `start`, if any.
  @inline(__always)
  static func nextBit(_ bits: UInt64, from start: Int) -> Int? {
    guard start < 64 else { return nil }
    let remaining = (bits >> UInt64(start)) << UInt64(start)
    return remaining == 0 ? nil : remaining.trailingZeroBitCount
  }
}
