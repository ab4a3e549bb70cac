@testable import FlowCron
@testable import FlowScheduler

/// Cron expressions to compare with the reference tools: hand-picked cases people get wrong, and a
/// deterministic spread of generated ones. Every one parses and fires.
enum ReferenceCorpus {
  static let handPicked = [
    // Day of month with day of week: OR when both are restricted, AND when one starts with `*`.
    "0 9 1 * MON", "0 9 13 * FRI", "30 6 1,15 * 1-5", "0 0 1-7 * SUN", "0 12 * * MON", "0 12 */2 * MON",
    "0 12 1 * */2", "0 0 */3 * MON-FRI", "0 0 1-31 * MON", "15 8 * * 0", "15 8 * * 7", "0 0 * * 5-7",
    "0 0 28-31 * *", "0 0 31 * 2",
    // Steps over ranges and lists.
    "*/15 * * * *", "1-30/5 * * * *", "0 8-18/2 * * 1-5", "*/7 */5 * * *", "0 */6 * * *", "5 1-23/4 * * *",
    "0,30 9-17 * * MON-FRI", "10-20/3,40 * * * *", "0 0 1-31/10 * *", "0 0 * 1-12/3 *", "0 0 1 */4 *",
    // Days that some months lack; February 29th and leap years.
    "0 0 29 * *", "0 0 30 * *", "0 0 31 * *", "0 12 29 2 *", "0 12 29 2 MON", "30 23 28,29 2 *",
    "0 0 31 1,3,5,7,8,10,12 *", "0 0 30 4,6,9,11 *", "0 0 29-31 2 *",
    // Names in any case, lists and ranges of names.
    "0 9 * JAN,jul MON", "0 9 * mar-may sat,sun", "0 18 * * Mon-Fri", "0 0 1 JAN *", "0 0 * DEC SUN",
    "0 7 * feb-aug/2 tue-thu",
    // Macros.
    "@hourly", "@daily", "@midnight", "@weekly", "@monthly", "@yearly", "@annually",
    // Everyday shapes.
    "* * * * *", "0 * * * *", "59 23 * * *", "0 0 * * *", "45 4 * * 6", "0 22 * * 1-5", "5 0 * 8 *",
    "15 14 1 * *", "0 0,12 1 */2 *", "23 0-20/2 * * *", "0 4 8-14 * *", "0 0 1,15 * 3",
  ]

  /// Expressions built from a fixed pseudo-random sequence, so every run compares the same ones.
  static let generated: [String] = {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let months = ["jan", "FEB", "Mar", "apr", "MAY", "jun", "JUL", "aug", "SEP", "oct", "NOV", "dec"]
    let days = ["SUN", "mon", "Tue", "WED", "thu", "Fri", "sat"]
    func field(_ low: Int, _ high: Int, names: [String] = []) -> String {
      func value(_ number: Int) -> String {
        !names.isEmpty && next(3) == 0 ? names[(number - low) % names.count] : String(number)
      }
      switch next(8) {
      case 0, 1: return "*"
      case 2: return value(low + next(high - low + 1))
      case 3:
        let start = low + next(high - low)
        return "\(value(start))-\(value(start + 1 + next(high - start)))"
      case 4: return "*/\(2 + next(max(1, (high - low) / 2)))"
      case 5:
        let start = low + next((high - low) / 2 + 1)
        return "\(start)-\(high)/\(2 + next(max(1, (high - low) / 3)))"
      default:
        let values = Set((0..<(2 + next(3))).map { _ in low + next(high - low + 1) }).sorted()
        return values.map(value).joined(separator: ",")
      }
    }
    var expressions: [String] = []
    while expressions.count < 170 {
      let text = [
        field(0, 59), field(0, 23), field(1, 31), field(1, 12, names: months), field(0, 6, names: days),
      ].joined(separator: " ")
      // Keep what parses and fires often enough for fifty fires before systemd's year 2199.
      guard !handPicked.contains(text), !expressions.contains(text),
        let expression = CronExpression.parse(text, locate: { _, _ in nil }).expression,
        expression.values(.month).count >= 3 || expression.values(.dayOfMonth).count >= 5
      else { continue }
      expressions.append(text)
    }
    return expressions
  }()

  static var all: [String] { handPicked + generated }

  /// Where croniter is documented to differ (see Documentation/Scheduling.md): a day field starting with
  /// `*` but not every day, with the other day field restricted — cron ANDs them, croniter ORs them.
  static func croniterDiffers(_ expression: CronExpression) -> Bool {
    let days = expression.values(.dayOfMonth).count, weekdays = expression.values(.dayOfWeek).count
    return (expression.dayOfMonthStar && days < 31 && weekdays < 7)
      || (expression.dayOfWeekStar && weekdays < 7 && days < 31)
  }
}
