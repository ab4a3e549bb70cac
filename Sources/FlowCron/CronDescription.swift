import FlowDiagnostics

extension CronExpression {
  /// The expression in words: "at 09:00, Monday through Friday", "every 15 minutes".
  ///
  /// The one place schedules become words: `flow schedule explain`, `flow show` and `flow list` use it.
  public var words: String {
    [timeWords, dayWords, monthWords].filter { !$0.isEmpty }.joined(separator: ", ")
  }

  // MARK: - Time of day

  private var timeWords: String {
    let minutes = values(.minute)
    let hours = values(.hour)
    let hourShape = Shape(hours, in: CronField.hour.range)
    // A few times read best as times: "at 09:00 and 17:30".
    if minutes.count * hours.count <= 6 {
      let times = hours.flatMap { hour in minutes.map { "\(Self.two(hour)):\(Self.two($0))" } }
      return "at " + List.and(times)
    }
    let minuteShape = Shape(minutes, in: CronField.minute.range)
    let minuteWords: String =
      switch minuteShape {
      case .all: "every minute"
      case .every(let step, from: 0): "every \(step) minutes"
      case .every(let step, let start): "every \(step) minutes from :\(Self.two(start))"
      case .range(let first, let last): "every minute from :\(Self.two(first)) to :\(Self.two(last))"
      case .list: "at " + List.and(minutes.map { ":" + Self.two($0) })
      }
    let hourly = minuteWords.hasPrefix("at ")
    switch hourShape {
    case .all:
      return hourly ? "every hour \(minuteWords)" : minuteWords
    case .every(let step, let start):
      let hourWords = start == 0 ? "every \(step) hours" : "every \(step) hours from \(Self.two(start)):00"
      return hourly ? "\(hourWords) \(minuteWords)" : "\(minuteWords), \(hourWords)"
    case .range, .list:
      let hourList = List.and(hours.map { "\(Self.two($0)):00" })
      guard let first = hours.first, let last = hours.last, let firstMinute = minutes.first,
        let lastMinute = minutes.last
      else { return minuteWords }
      let span = "from \(Self.two(first)):\(Self.two(firstMinute)) to \(Self.two(last)):\(Self.two(lastMinute))"
      // Consecutive hours (one, two, or a range) read as one span of the day: "every 5 minutes from
      // 09:00 to 09:55"; the span's start says the first minute, so a step's own start goes.
      guard last - first == hours.count - 1 else {
        return hourly ? "\(minuteWords) past \(hourList)" : "\(minuteWords) in the \(hourList) hours"
      }
      switch minuteShape {
      case .every(let step, _): return "every \(step) minutes \(span)"
      case .range where first == last: return "every minute \(span)"
      case .list where first == last: return "at " + List.and(minutes.map { "\(Self.two(first)):\(Self.two($0))" })
      default: return hourly ? "every hour \(minuteWords), \(span)" : "\(minuteWords) \(span)"
      }
    }
  }

  // MARK: - Days and months

  private var dayWords: String {
    let days = values(.dayOfMonth)
    let weekdays = values(.dayOfWeek)
    let months = values(.month)
    // One day of one month reads as a date: "on January 1st".
    if days.count == 1, months.count == 1, weekdays.count == 7 {
      return "on \(Self.monthNames[months[0] - 1]) \(Self.ordinal(days[0]))"
    }
    let allDays = days.count == 31
    let allWeekdays = weekdays.count == 7
    if daysCombineWithOr {
      switch (allDays, allWeekdays) {
      case (true, _), (_, true): return ""
      default: return "\(dayOfMonthWords(days)) and \(weekdayWords(weekdays, every: true))"
      }
    }
    switch (allDays, allWeekdays) {
    case (true, true): return ""
    case (true, false): return weekdayWords(weekdays, every: true)
    case (false, true): return dayOfMonthWords(days)
    case (false, false): return "\(dayOfMonthWords(days)) if it is \(weekdayWords(weekdays, every: false))"
    }
  }

  private func dayOfMonthWords(_ days: [Int]) -> String {
    switch Shape(days, in: CronField.dayOfMonth.range) {
    case .every(let step, from: 1): "every \(step) days of the month from the 1st"
    case .every(let step, let start): "every \(step) days of the month from the \(Self.ordinal(start))"
    case .range(let first, let last): "on the \(Self.ordinal(first)) to the \(Self.ordinal(last)) of the month"
    default: "on the \(List.and(days.map(Self.ordinal))) of the month"
    }
  }

  private func weekdayWords(_ weekdays: [Int], every: Bool) -> String {
    let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    if case .range(let first, let last) = Shape(weekdays, in: 0...6), last - first >= 2 {
      return "\(names[first]) through \(names[last])"
    }
    // Saturday and Sunday read as a weekend whichever number Sunday has.
    if weekdays == [0, 6] { return every ? "on Saturday and Sunday" : "Saturday or Sunday" }
    let listed = weekdays.map { names[$0] }
    return every ? (listed.count == 1 ? "every \(listed[0])" : "on \(List.and(listed))") : List.or(listed)
  }

  static let monthNames = CronField.month.fullNames.map { $0.prefix(1).uppercased() + $0.dropFirst() }

  private var monthWords: String {
    let months = values(.month)
    if months.count == 1, values(.dayOfMonth).count == 1, values(.dayOfWeek).count == 7 { return "" }
    let names = Self.monthNames
    switch Shape(months, in: CronField.month.range) {
    case .all: return ""
    case .range(let first, let last) where last - first >= 2: return "\(names[first - 1]) through \(names[last - 1])"
    case .every(let step, let start) where months.count > 4:
      return "every \(step) months from \(names[start - 1])"
    default: return "in " + List.and(months.map { names[$0 - 1] })
    }
  }

  // MARK: - Helpers

  /// How a field's values read: all of them, a step, a range or a list.
  enum Shape: Equatable {
    case all
    case every(Int, from: Int)
    case range(Int, Int)
    case list

    init(_ values: [Int], in domain: ClosedRange<Int>) {
      guard let first = values.first, let last = values.last else {
        self = .list
        return
      }
      if values.count == domain.count {
        self = .all
      } else if values.count > 2, last - first == values.count - 1 {
        self = .range(first, last)
      } else if values.count > 2, let step = Optional(values[1] - values[0]), step > 1,
        zip(values, values.dropFirst()).allSatisfy({ $1 - $0 == step }), first < domain.lowerBound + step,
        last + step > domain.upperBound
      {
        self = .every(step, from: first)
      } else {
        self = .list
      }
    }
  }

  static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  static func ordinal(_ value: Int) -> String {
    let suffix =
      switch (value % 10, value % 100) {
      case (_, 11...13): "th"
      case (1, _): "st"
      case (2, _): "nd"
      case (3, _): "rd"
      default: "th"
      }
    return "\(value)\(suffix)"
  }
}
