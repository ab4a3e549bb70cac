import FlowDiagnostics
import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// The expression, or a test failure naming its diagnostics.
func cron(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CronExpression {
  let (expression, diagnostics) = CronExpression.parse(text, locate: { _, _ in nil })
  return try #require(expression, "\(text): \(diagnostics.map(\.message))", sourceLocation: sourceLocation)
}

/// The problems of `text`, as "start-end: message" with 0-based offsets inside the text.
func problems(_ text: String) -> [String] {
  let file = SourceFile(path: "cron", text: text)
  let (_, diagnostics) = CronExpression.parse(text) { start, end in
    SourceSpan(
      file: file, start: FlowDiagnostics.SourceLocation(line: 1, column: start + 1),
      end: FlowDiagnostics.SourceLocation(line: 1, column: end + 1))
  }
  return diagnostics.map { "\($0.span.map { "\($0.start.column - 1)-\($0.end.column - 1)" } ?? "?"): \($0.message)" }
}

func zone(_ name: String) throws -> TimeZone {
  try #require(TimeZoneName.zone(named: name))
}

/// Seconds since 1970 of an ISO 8601 time with offset.
func instant(_ text: String) throws -> Int64 {
  let formatter = ISO8601DateFormatter()
  let date = try #require(formatter.date(from: text), "not ISO 8601: \(text)")
  return Int64(date.timeIntervalSince1970)
}

/// The next `count` fires of `expressions` in `zoneName` after `from`, as ISO 8601 text.
func fires(_ expressions: [String], in zoneName: String, after from: String, count: Int) throws -> [String] {
  let timeZone = try zone(zoneName)
  let schedule = Schedule(try expressions.map { Schedule.Entry(try cron($0), timeZone: timeZone) })
  var cursor = try instant(from)
  var result: [String] = []
  for _ in 0..<count {
    guard let fire = schedule.nextFire(after: cursor) else { break }
    result.append(fire.iso8601)
    cursor = fire.instant
  }
  return result
}

func fires(_ expression: String, in zoneName: String = "UTC", after from: String, count: Int) throws -> [String] {
  try fires([expression], in: zoneName, after: from, count: count)
}
