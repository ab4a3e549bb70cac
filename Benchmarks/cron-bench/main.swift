// cron-bench: next-fire computations per second (Scripts/bench-cron.sh), against references measured in
// the same run: the obvious minute-by-minute search over the same expressions, and croniter (the script
// times it in the same run and passes nothing here).
// Usage: cron-bench [SECONDS-PER-MEASUREMENT] [CRONITER-CALLS-PER-SECOND]

import FlowCron
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let budget = arguments.first.flatMap(Double.init) ?? 1.0
/// croniter's rate on the same expressions, measured by Scripts/bench-cron.sh just before.
let croniter = arguments.dropFirst().first.flatMap(Double.init)

/// Typical schedules: what people write in crontabs and workflow files.
let typical = [
  "*/15 * * * *", "0 9 * * MON-FRI", "30 2 * * *", "0 0 1 * *", "0 */6 * * *", "5 4 * * sun", "0 9 1 * MON",
  "@daily", "0 8-18/2 * * 1-5", "15 10 * * *",
]

func expression(_ text: String) -> CronExpression {
  guard let expression = CronExpression.parse(text, locate: { _, _ in nil }).expression else {
    fatalError("bad expression \(text)")
  }
  return expression
}

/// Calls `work` with a growing counter for about `budget` seconds; returns calls per second.
func rate(_ work: (Int) -> Int64) -> (perSecond: Double, checksum: Int64) {
  let clock = ContinuousClock()
  var calls = 0
  var checksum: Int64 = 0
  let start = clock.now
  var elapsed = Duration.zero
  while elapsed < .seconds(budget) {
    for _ in 0..<1_000 {
      checksum &+= work(calls)
      calls += 1
    }
    elapsed = clock.now - start
  }
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return (Double(calls) / seconds, checksum)
}

func format(_ value: Double) -> String {
  value >= 1_000_000 ? String(format: "%.2fM", value / 1_000_000) : String(format: "%.0fk", value / 1_000)
}

let base: Int64 = 1_795_000_000  // 2026-11-18, a Wednesday
let zones = ["UTC", "Europe/Berlin", "America/New_York"]
print("next-fire computations per second, \(typical.count) typical expressions, \(budget) s each")
var utcRate = 0.0
for zoneName in zones {
  guard let timeZone = TimeZoneName.zone(named: zoneName) else { fatalError("no zone \(zoneName)") }
  let schedules = typical.map { Schedule([Schedule.Entry(expression($0), timeZone: timeZone)]) }
  // Starting points spread over a year, so that searches cross months and transitions.
  let starts = (0..<997).map { base + Int64($0) * 31_657 }
  let fast = rate { call in
    schedules[call % schedules.count].nextFire(after: starts[call % starts.count])?.instant ?? 0
  }
  print("  \(zoneName.padding(toLength: 17, withPad: " ", startingAt: 0)) flow: \(format(fast.perSecond))/s")
  if zoneName == "UTC" { utcRate = fast.perSecond }
}
if let croniter {
  print("  croniter (UTC)    \(format(croniter))/s; flow is " + String(format: "%.0f× faster", utcRate / croniter))
}

// The reference: a minute-by-minute search in local time over the same expressions (UTC).
let expressions = typical.map(expression)
let starts = (0..<997).map { base + Int64($0) * 31_657 }
let fast = rate { call in expressions[call % expressions.count].nextLocal(atOrAfter: starts[call % starts.count]) ?? 0 }
let naive = rate { call in
  let expression = expressions[call % expressions.count]
  var minute = (starts[call % starts.count] + 59) / 60 * 60
  while !expression.matches(localSeconds: minute) { minute += 60 }
  return minute
}
print(
  "local search, field by field: \(format(fast.perSecond))/s; minute by minute: \(format(naive.perSecond))/s; "
    + String(format: "ratio %.0f×", fast.perSecond / naive.perSecond))
