import FlowDiagnostics

extension CronExpression {
  /// The macros cron defines, and the five fields each stands for.
  static let macros: [(name: String, fields: String)] = [
    ("@hourly", "0 * * * *"), ("@daily", "0 0 * * *"), ("@midnight", "0 0 * * *"), ("@weekly", "0 0 * * 0"),
    ("@monthly", "0 0 1 * *"), ("@yearly", "0 0 1 1 *"), ("@annually", "0 0 1 1 *"),
  ]

  /// Parses `text`, reporting every bad field at its own place.
  ///
  /// - Parameter locate: the span of the characters `start..<end` of `text` (counted in Unicode scalars),
  ///   so that `0 25 * * *` is reported at `25` wherever the expression was written.
  /// - Returns: the expression, or nil with at least one error.
  public static func parse(_ text: String, locate: (Int, Int) -> SourceSpan?) -> (
    expression: CronExpression?, diagnostics: [Diagnostic]
  ) {
    withoutActuallyEscaping(locate) { locate in
      var parser = CronParser(text: text, locate: locate)
      let expression = parser.parse()
      return (parser.diagnostics.isEmpty ? expression : nil, parser.diagnostics)
    }
  }
}

/// The problems a cron expression or a time zone can have.
extension DiagnosticCode {
  /// Not five fields: too few, or six or seven (seconds, years, a command).
  public static let cronFieldCount: Self = "cron-field-count"
  /// A character or form cron does not have in a field (`5/10`, `?`, `L`, an empty list item).
  public static let cronSyntax: Self = "cron-syntax"
  /// A number outside its field's range (`0 25 * * *`), or a step outside 1 to the field's width.
  public static let cronOutOfRange: Self = "cron-out-of-range"
  /// A month or weekday name that cron does not know.
  public static let cronUnknownName: Self = "cron-unknown-name"
  /// A range whose start is after its end (`5-1`, `MON-SUN`).
  public static let cronBackwardRange: Self = "cron-backward-range"
  /// A macro that is not a time (`@reboot`) or not cron's (`@every 5m`).
  public static let cronUnsupportedMacro: Self = "cron-unsupported-macro"
  /// Days and months that never meet (`0 0 30 2 *`): the schedule would never fire.
  public static let cronNeverFires: Self = "cron-never-fires"
}

/// The recursive-descent reader behind ``CronExpression/parse(_:locate:)``.
private struct CronParser {
  let scalars: [Unicode.Scalar]
  let locate: (Int, Int) -> SourceSpan?
  var diagnostics: [Diagnostic] = []

  init(text: String, locate: @escaping (Int, Int) -> SourceSpan?) {
    scalars = Array(text.unicodeScalars)
    self.locate = locate
  }

  private mutating func report(
    _ code: DiagnosticCode, _ message: String, _ start: Int, _ end: Int, help: String? = nil
  ) {
    diagnostics.append(Diagnostic(.error, code, message, at: locate(start, max(end, start + 1))).help(help))
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(String.UnicodeScalarView(scalars[start..<end]))
  }

  private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

  mutating func parse() -> CronExpression? {
    // The fields and where each starts and ends.
    var fields: [(start: Int, end: Int)] = []
    var index = 0
    while index < scalars.count {
      if Self.isBlank(scalars[index]) {
        index += 1
        continue
      }
      let start = index
      while index < scalars.count, !Self.isBlank(scalars[index]) { index += 1 }
      fields.append((start, index))
    }
    guard let first = fields.first, let last = fields.last else {
      report(
        .cronFieldCount, "the schedule is empty", 0, max(scalars.count, 1),
        help: "write five fields: minute hour day-of-month month day-of-week, like '0 9 * * MON-FRI'")
      return nil
    }
    let written = text(first.start, last.end)
    if scalars[first.start] == "@" {
      return macro(fields, written: written)
    }
    guard fields.count == 5 else {
      fieldCount(fields)
      return nil
    }
    var bits: [UInt64] = []
    var starts: [Bool] = []
    for (field, place) in zip(CronField.allCases, fields) {
      bits.append(parseField(field, place.start, place.end) ?? 0)
      starts.append(scalars[place.start] == "*")
    }
    guard diagnostics.isEmpty else { return nil }
    let expression = CronExpression(
      text: written, macro: nil, minutes: bits[0], hours: bits[1], daysOfMonth: bits[2], months: bits[3],
      daysOfWeek: bits[4], dayOfMonthStar: starts[2], dayOfWeekStar: starts[4],
      isWildcardTime: starts[0] || starts[1])
    checkReachable(expression, dayField: fields[2])
    return expression
  }

  private mutating func macro(_ fields: [(start: Int, end: Int)], written: String) -> CronExpression? {
    let head = fields[0]
    let name = text(head.start, head.end).lowercased()
    guard let known = CronExpression.macros.first(where: { $0.name == name }) else {
      switch name {
      case "@reboot":
        report(
          .cronUnsupportedMacro, "'@reboot' is not a time: a schedule says when to run", head.start, head.end,
          help: "to run at start-up, start 'flow run' from a systemd user service with WantedBy=default.target")
      case "@every":
        report(
          .cronUnsupportedMacro, "'@every' intervals are not cron", head.start, fields.last?.end ?? head.end,
          help: "write a step, like '*/5 * * * *' for every five minutes")
      default:
        let names = CronExpression.macros.map(\.name)
        report(
          .cronUnsupportedMacro, "unknown macro '\(text(head.start, head.end))'", head.start, head.end,
          help: Suggestion.help(for: name, among: names, listUpTo: names.count))
      }
      return nil
    }
    if fields.count > 1 {
      report(
        .cronFieldCount, "'\(known.name)' stands alone; nothing may follow it", fields[1].start,
        fields[fields.count - 1].end, help: "write either '\(known.name)' or five fields")
      return nil
    }
    guard let expanded = CronExpression.parse(known.fields, locate: { _, _ in nil }).expression else { return nil }
    return CronExpression(
      text: written, macro: known.name, minutes: expanded.minutes, hours: expanded.hours,
      daysOfMonth: expanded.daysOfMonth, months: expanded.months, daysOfWeek: expanded.daysOfWeek,
      dayOfMonthStar: expanded.dayOfMonthStar, dayOfWeekStar: expanded.dayOfWeekStar,
      isWildcardTime: expanded.isWildcardTime)
  }

  private mutating func fieldCount(_ fields: [(start: Int, end: Int)]) {
    let rule = "five fields: minute hour day-of-month month day-of-week"
    if fields.count < 5 {
      let missing = CronField.allCases[fields.count...].map(\.name)
      report(
        .cronFieldCount, "a schedule has \(rule); this one has \(fields.count)", fields[0].start,
        fields[fields.count - 1].end, help: "add \(List.and(missing.map { "the \($0)" })), or '*' for any")
    } else if let command = fields.dropFirst(5).first, let first = scalars[command.start...].first,
      "/~.$".unicodeScalars.contains(first) || text(command.start, command.end).count > 3
    {
      report(
        .cronFieldCount, "a schedule has \(rule); this one has \(fields.count)", command.start,
        fields[fields.count - 1].end,
        help: "a schedule holds the time only: the workflow is what runs, so there is no command to write")
    } else if fields.count == 6 {
      report(
        .cronFieldCount, "a schedule has \(rule); this one has 6", fields[0].start, fields[5].end,
        help:
          "six-field forms (seconds first, or a year last) are not cron's; the finest step is one minute")
    } else {
      report(
        .cronFieldCount, "a schedule has \(rule); this one has \(fields.count)", fields[0].start,
        fields[fields.count - 1].end,
        help: "seven-field forms (seconds first and a year last, as Quartz writes them) are not cron's")
    }
  }

  // MARK: - Fields

  /// One field: a list of `*`, `N`, `N-M`, each optionally `/STEP`. Reports the first problem in the
  /// field and returns nil.
  private mutating func parseField(_ field: CronField, _ start: Int, _ end: Int) -> UInt64? {
    var bits: UInt64 = 0
    var index = start
    while true {
      guard let item = parseItem(field, &index, end) else { return nil }
      bits |= item
      if index == end { return bits }
      guard scalars[index] == "," else {
        unexpected(field, index, end)
        return nil
      }
      index += 1
      if index == end || scalars[index] == "," {
        report(
          .cronSyntax, "empty item in the \(field.name) list", index - 1, index,
          help: "remove the extra ',' or add a value after it")
        return nil
      }
    }
  }

  private mutating func parseItem(_ field: CronField, _ index: inout Int, _ end: Int) -> UInt64? {
    let start = index
    var low: Int
    var high: Int
    var isStar = false
    if scalars[index] == "*" {
      index += 1
      (low, high) = (field.range.lowerBound, field.range.upperBound)
      isStar = true
    } else {
      guard let first = value(field, &index, end) else { return nil }
      (low, high) = (first, first)
      if index < end, scalars[index] == "-" {
        index += 1
        guard index < end, scalars[index] != ",", scalars[index] != "/" else {
          report(.cronSyntax, "the range in \(field.name) has no end", start, index, help: "write a range like '1-5'")
          return nil
        }
        guard let second = value(field, &index, end) else { return nil }
        high = second
        if high < low {
          let written = text(start, index)
          let help =
            field == .dayOfWeek && high == 0
            ? "Sunday is 0 at the start of the week and 7 at its end: write '\(text(start, index).split(separator: "-")[0])-7'"
            : "a range cannot wrap around; write it as two, like '22-23,0-2'"
          report(.cronBackwardRange, "the range '\(written)' in \(field.name) runs backwards", start, index, help: help)
          return nil
        }
      }
    }
    var step = 1
    if index < end, scalars[index] == "/" {
      let slash = index
      index += 1
      let digits = index
      while index < end, ("0"..."9").contains(scalars[index]) { index += 1 }
      guard index > digits else {
        report(.cronSyntax, "a step needs a number after '/'", slash, index + (index < end ? 1 : 0))
        return nil
      }
      step = Int(text(digits, index)).map { min($0, 1_000) } ?? 1_000
      guard (1...field.width).contains(step) else {
        report(
          .cronOutOfRange, "a \(field.name) step must be 1–\(field.width), found \(text(digits, index))", digits, index)
        return nil
      }
      if !isStar, low == high {
        report(
          .cronSyntax, "'\(text(start, index))' steps from a single value", start, index,
          help:
            "write the range out, like '\(text(start, slash))-\(field.range.upperBound)/\(step)': cron engines disagree on what '\(text(start, index))' means"
        )
        return nil
      }
    }
    var bits: UInt64 = 0
    var value = low
    while value <= high {
      bits |= 1 << UInt64(value)
      value += step
    }
    return bits
  }

  /// A number or a name in `field`, range-checked.
  private mutating func value(_ field: CronField, _ index: inout Int, _ end: Int) -> Int? {
    let start = index
    while index < end, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
      index += 1
    }
    guard index > start else {
      unexpected(field, start, end)
      return nil
    }
    let word = text(start, index)
    // All digits is a number, however long: one too large for Int is out of range too.
    if word.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
      guard let number = Int(word), field.range.contains(number) else {
        report(.cronOutOfRange, "\(field.rangeRule), found \(word)", start, index)
        return nil
      }
      return number
    }
    guard word.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) else {
      report(
        .cronSyntax, "'\(word)' is neither a number nor a name in \(field.name)", start, index,
        help: quartzHelp(word) ?? "write a number, like '\(field.range.lowerBound)'")
      return nil
    }
    guard !field.names.isEmpty else {
      report(
        .cronSyntax, "\(field.name) takes numbers, found '\(word)'", start, index,
        help: quartzHelp(word) ?? field.rangeRule)
      return nil
    }
    if let number = field.value(ofName: word) { return number }
    let help: String? =
      if let full = field.fullNames.firstIndex(of: word.lowercased()) {
        "did you mean '\(field.names[full])'? names are three letters"
      } else {
        Suggestion.help(for: word.uppercased(), among: field.names, listUpTo: 0)
          ?? quartzHelp(word) ?? "names are \(field.names.first ?? "")–\(field.names.last ?? "")"
      }
    report(.cronUnknownName, "unknown \(field.name) name '\(word)'", start, index, help: help)
    return nil
  }

  /// A help line for the Quartz extensions people carry over from other schedulers.
  private func quartzHelp(_ word: String) -> String? {
    switch word.uppercased() {
    case "L", "LW", "W": "'L' and 'W' (last day, nearest weekday) are Quartz's, not cron's"
    default: nil
    }
  }

  private mutating func unexpected(_ field: CronField, _ index: Int, _ end: Int) {
    let character = scalars[index]
    let help: String? =
      switch character {
      case "?": "'?' is Quartz's 'no specific value'; cron writes '*'"
      case "#": "'#' (the nth weekday of the month) is Quartz's, not cron's"
      case "/": "a step follows '*' or a range, like '*/15' or '1-30/5'"
      default: nil
      }
    report(.cronSyntax, "unexpected '\(character)' in \(field.name)", index, index + 1, help: help)
  }

  /// Refuses days that never meet their months: `30 2` (February 30th) would never fire.
  private mutating func checkReachable(_ expression: CronExpression, dayField: (start: Int, end: Int)) {
    // With both day fields restricted either may match, and every month has every weekday.
    guard !expression.daysCombineWithOr, !expression.dayOfMonthStar else { return }
    let months = expression.values(.month)
    let reachable = months.contains { month in
      let longest = CivilTime.daysIn(month: month, year: 2000)
      return expression.daysOfMonth & ((1 << UInt64(longest + 1)) - 1) != 0
    }
    guard !reachable else { return }
    let names = months.map { month in
      let name = CronField.month.fullNames[month - 1]
      return name.prefix(1).uppercased() + name.dropFirst()
    }
    let days = expression.values(.dayOfMonth).map(String.init)
    report(
      .cronNeverFires,
      "this schedule never fires: \(List.or(names)) \(names.count == 1 ? "has" : "have") no day \(List.or(days))",
      dayField.start, dayField.end, help: "check the day of month and the month")
  }
}
