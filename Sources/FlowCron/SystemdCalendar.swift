extension CronExpression {
  /// `OnCalendar=` values that elapse exactly when this expression matches in `zone` (systemd.time(7)),
  /// away from daylight-saving transitions, where systemd skips a time that does not exist.
  ///
  /// One line, except where cron's day rule cannot be said in one: cron fires when either restricted
  /// day field matches, `OnCalendar=` only when both do, so `0 9 1 * MON` becomes one line for the
  /// Mondays and one for the 1st.
  public func onCalendar(zone: String) -> [String] {
    let time = "\(Self.systemdList(values(.hour), all: 24)):\(Self.systemdList(values(.minute), all: 60)):00 \(zone)"
    let month = Self.systemdList(values(.month), all: 12)
    let days = Self.systemdList(values(.dayOfMonth), all: 31)
    let weekdays = weekdayList
    if daysCombineWithOr {
      // Either field matching every day makes every day match.
      guard let weekdays, days != "*" else { return ["*-\(month)-* \(time)"] }
      return ["\(weekdays) *-\(month)-* \(time)", "*-\(month)-\(days) \(time)"]
    }
    return ["\(weekdays.map { $0 + " " } ?? "")*-\(month)-\(days) \(time)"]
  }

  /// The weekdays as systemd writes them (`Mon..Fri`, `Sat,Sun`); nil for every day. systemd's week
  /// starts on Monday, and its ranges may not wrap, so Sunday comes last.
  private var weekdayList: String? {
    let weekdays = values(.dayOfWeek).map { ($0 + 6) % 7 }.sorted()
    guard weekdays.count < 7 else { return nil }
    let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    return Self.runs(weekdays).map { run in
      run.count >= 3 ? "\(names[run[0]])..\(names[run[run.count - 1]])" : run.map { names[$0] }.joined(separator: ",")
    }.joined(separator: ",")
  }

  /// `*` for every value, else runs of three or more as `a..b` and the rest listed: `1..5,10,20`.
  static func systemdList(_ values: [Int], all: Int) -> String {
    guard values.count < all else { return "*" }
    return runs(values).map { run in
      run.count >= 3 ? "\(two(run[0]))..\(two(run[run.count - 1]))" : run.map(two).joined(separator: ",")
    }.joined(separator: ",")
  }

  /// Consecutive values grouped: [1, 2, 3, 7] → [[1, 2, 3], [7]].
  static func runs(_ values: [Int]) -> [[Int]] {
    var runs: [[Int]] = []
    for value in values {
      if let last = runs.last?.last, last + 1 == value {
        runs[runs.count - 1].append(value)
      } else {
        runs.append([value])
      }
    }
    return runs
  }
}
