import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// Next fire times with Vixie cron's and cronie's meaning, in UTC (no daylight saving).
struct NextFireTests {
  @Test func stepsFromTheStartOfTheHour() throws {
    #expect(
      try fires("*/15 * * * *", after: "2026-01-01T00:07:00Z", count: 3) == [
        "2026-01-01T00:15:00+00:00", "2026-01-01T00:30:00+00:00", "2026-01-01T00:45:00+00:00",
      ])
  }

  @Test func strictlyAfterTheStart() throws {
    #expect(try fires("0 9 * * *", after: "2026-01-01T09:00:00Z", count: 1) == ["2026-01-02T09:00:00+00:00"])
    #expect(try fires("0 9 * * *", after: "2026-01-01T08:59:59Z", count: 1) == ["2026-01-01T09:00:00+00:00"])
  }

  @Test func stepsOverRangesAndLists() throws {
    #expect(
      try fires("1-30/10 8,20 * * *", after: "2026-01-01T00:00:00Z", count: 4) == [
        "2026-01-01T08:01:00+00:00", "2026-01-01T08:11:00+00:00", "2026-01-01T08:21:00+00:00",
        "2026-01-01T20:01:00+00:00",
      ])
  }

  /// Both day fields restricted: either one matching is enough.
  @Test func restrictedDayFieldsCombineWithOr() throws {
    // 2026-01-01 is a Thursday.
    #expect(
      try fires("0 9 1 * MON", after: "2026-01-01T00:00:00Z", count: 4) == [
        "2026-01-01T09:00:00+00:00", "2026-01-05T09:00:00+00:00", "2026-01-12T09:00:00+00:00",
        "2026-01-19T09:00:00+00:00",
      ])
  }

  /// A day field written starting with `*` makes the two combine with AND, as in cronie (croniter
  /// differs): odd days of the month that are Mondays.
  @Test func aStarredDayFieldCombinesWithAnd() throws {
    #expect(
      try fires("0 0 */2 * MON", after: "2026-01-01T00:00:00Z", count: 3) == [
        "2026-01-05T00:00:00+00:00", "2026-01-19T00:00:00+00:00", "2026-02-09T00:00:00+00:00",
      ])
    #expect(
      try fires("0 0 1 * */2", after: "2026-01-01T00:00:00Z", count: 2) == [
        "2026-02-01T00:00:00+00:00", "2026-03-01T00:00:00+00:00",
      ])
  }

  @Test func daysSomeMonthsLack() throws {
    #expect(
      try fires("0 0 31 * *", after: "2026-01-31T00:00:00Z", count: 3) == [
        "2026-03-31T00:00:00+00:00", "2026-05-31T00:00:00+00:00", "2026-07-31T00:00:00+00:00",
      ])
    #expect(
      try fires("0 0 29 2 *", after: "2026-01-01T00:00:00Z", count: 3) == [
        "2028-02-29T00:00:00+00:00", "2032-02-29T00:00:00+00:00", "2036-02-29T00:00:00+00:00",
      ])
    // 2100 is not a leap year.
    #expect(try fires("0 0 29 2 *", after: "2096-03-01T00:00:00Z", count: 1) == ["2104-02-29T00:00:00+00:00"])
  }

  /// February 29th on a Monday (a day field starting with `*` makes it AND): years apart.
  @Test func leapDayOnAWeekday() throws {
    #expect(try fires("0 0 29 2 */7", after: "2026-01-01T00:00:00Z", count: 1) == ["2032-02-29T00:00:00+00:00"])
  }

  @Test func namesInAnyCaseAndSevenIsSunday() throws {
    let names = try fires("0 12 * jan,Mar sun-sat/3", after: "2026-01-01T00:00:00Z", count: 3)
    let numbers = try fires("0 12 * 1,3 0-6/3", after: "2026-01-01T00:00:00Z", count: 3)
    #expect(names == numbers)
    #expect(try cron("0 0 * * 7").values(.dayOfWeek) == [0])
    #expect(try cron("0 0 * * 5-7").values(.dayOfWeek) == [0, 5, 6])
  }

  @Test func macros() throws {
    let from = "2026-01-01T00:30:00Z"
    #expect(try fires("@hourly", after: from, count: 1) == ["2026-01-01T01:00:00+00:00"])
    #expect(try fires("@daily", after: from, count: 1) == ["2026-01-02T00:00:00+00:00"])
    #expect(try fires("@midnight", after: from, count: 1) == ["2026-01-02T00:00:00+00:00"])
    #expect(try fires("@weekly", after: from, count: 1) == ["2026-01-04T00:00:00+00:00"])
    #expect(try fires("@monthly", after: from, count: 1) == ["2026-02-01T00:00:00+00:00"])
    #expect(try fires("@yearly", after: from, count: 1) == ["2027-01-01T00:00:00+00:00"])
    #expect(try fires("@ANNUALLY", after: from, count: 1) == ["2027-01-01T00:00:00+00:00"])
    #expect(try cron("@hourly").isWildcardTime)
    #expect(try !cron("@daily").isWildcardTime)
  }

  /// Several expressions make one ordered stream; a time two of them share is one fire naming both.
  @Test func expressionsMerge() throws {
    let schedule = Schedule([
      Schedule.Entry(try cron("0 9 * * MON"), timeZone: try zone("UTC")),
      Schedule.Entry(try cron("0 9,17 * * *"), timeZone: try zone("UTC")),
    ])
    let fires = schedule.fires(
      after: Date(timeIntervalSince1970: TimeInterval(try instant("2026-01-04T12:00:00Z"))), count: 3)
    #expect(
      fires.map(\.iso8601) == ["2026-01-04T17:00:00+00:00", "2026-01-05T09:00:00+00:00", "2026-01-05T17:00:00+00:00"])
    #expect(fires.map(\.entries) == [[1], [0, 1], [1]])
  }

  @Test func zonesAwayFromTransitions() throws {
    #expect(
      try fires("0 9 * * MON-FRI", in: "Asia/Tokyo", after: "2026-01-02T00:00:00Z", count: 2) == [
        "2026-01-05T09:00:00+09:00", "2026-01-06T09:00:00+09:00",
      ])
    #expect(
      try fires("30 9 * * *", in: "Asia/Kolkata", after: "2026-06-01T00:00:00Z", count: 1) == [
        "2026-06-01T09:30:00+05:30"
      ])
  }

  /// The jumping search agrees with the obvious minute-by-minute one on a spread of expressions.
  @Test func agreesWithAMinuteByMinuteSearch() throws {
    let expressions = [
      "*/7 */5 * * *", "0 0 13 * FRI", "15 10 * * 1-5", "0 0 */3 */2 *", "59 23 31 * *", "0 6 1,15 * 0",
      "*/20 9-17 * * MON-FRI", "0 0 1,15 * *", "5 4 * * sun", "0 */6 10-20/5 * *",
    ]
    let start = try instant("2026-02-20T11:11:00Z")
    for text in expressions {
      let expression = try cron(text)
      var cursor = start
      for _ in 0..<5 {
        let fast = try #require(expression.nextLocal(atOrAfter: cursor + 1))
        var slow = (cursor / 60 + 1) * 60
        while !expression.matches(localSeconds: slow) { slow += 60 }
        #expect(fast == slow, "\(text) after \(cursor)")
        cursor = fast
      }
    }
  }
}
