import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// cronie's daylight-saving rules: never skip a day, never run twice — fixed-time expressions fire once
/// a day; wildcard ones (minute or hour starting with `*`) follow elapsed time.
struct DaylightSavingTests {
  // Europe/Berlin: 2027-03-28 02:00 CET → 03:00 CEST; 2027-10-31 03:00 CEST → 02:00 CET.
  // America/New_York: 2027-03-14 02:00 EST → 03:00 EDT; 2027-11-07 02:00 EDT → 01:00 EST.

  @Test func springForwardFiresAFixedTimeInTheGapAtTheEndOfTheGap() throws {
    #expect(
      try fires("30 2 * * *", in: "Europe/Berlin", after: "2027-03-27T12:00:00Z", count: 3) == [
        "2027-03-28T03:00:00+02:00", "2027-03-29T02:30:00+02:00", "2027-03-30T02:30:00+02:00",
      ])
    #expect(
      try fires("30 2 * * *", in: "America/New_York", after: "2027-03-13T12:00:00Z", count: 2) == [
        "2027-03-14T03:00:00-04:00", "2027-03-15T02:30:00-04:00",
      ])
  }

  /// Several fixed times inside the gap make one fire; one at the end of the gap is the same fire.
  @Test func fixedTimesInTheGapMakeOneFire() throws {
    #expect(
      try fires("0,15,45 2,3 * * *", in: "Europe/Berlin", after: "2027-03-28T00:00:00Z", count: 4) == [
        "2027-03-28T03:00:00+02:00", "2027-03-28T03:15:00+02:00", "2027-03-28T03:45:00+02:00",
        "2027-03-29T02:00:00+02:00",
      ])
  }

  @Test func springForwardSkipsWildcardTimesThatDoNotExist() throws {
    #expect(
      try fires("30 * * * *", in: "Europe/Berlin", after: "2027-03-28T00:00:00Z", count: 3) == [
        "2027-03-28T01:30:00+01:00", "2027-03-28T03:30:00+02:00", "2027-03-28T04:30:00+02:00",
      ])
    #expect(
      try fires("*/20 2 * * *", in: "Europe/Berlin", after: "2027-03-27T12:00:00Z", count: 2) == [
        "2027-03-29T02:00:00+02:00", "2027-03-29T02:20:00+02:00",
      ])
  }

  @Test func fallBackFiresAFixedTimeOnceAtTheFirstPass() throws {
    #expect(
      try fires("30 2 * * *", in: "Europe/Berlin", after: "2027-10-30T12:00:00Z", count: 2) == [
        "2027-10-31T02:30:00+02:00", "2027-11-01T02:30:00+01:00",
      ])
    #expect(
      try fires("30 1 * * *", in: "America/New_York", after: "2027-11-06T12:00:00Z", count: 2) == [
        "2027-11-07T01:30:00-04:00", "2027-11-08T01:30:00-05:00",
      ])
  }

  @Test func fallBackFiresAWildcardAtBothPasses() throws {
    #expect(
      try fires("30 * * * *", in: "Europe/Berlin", after: "2027-10-30T23:00:00Z", count: 4) == [
        "2027-10-31T01:30:00+02:00", "2027-10-31T02:30:00+02:00", "2027-10-31T02:30:00+01:00",
        "2027-10-31T03:30:00+01:00",
      ])
    #expect(
      try fires("*/30 1 * * *", in: "America/New_York", after: "2027-11-07T00:00:00-04:00", count: 5) == [
        "2027-11-07T01:00:00-04:00", "2027-11-07T01:30:00-04:00", "2027-11-07T01:00:00-05:00",
        "2027-11-07T01:30:00-05:00", "2027-11-08T01:00:00-05:00",
      ])
  }

  /// A search that starts inside the repeated hour finds the second pass of a wildcard expression and
  /// nothing more of a fixed-time one.
  @Test func startingInsideTheRepeatedHour() throws {
    // 00:45 UTC is 02:45 CEST, the first pass.
    #expect(
      try fires("30 * * * *", in: "Europe/Berlin", after: "2027-10-31T00:45:00Z", count: 1) == [
        "2027-10-31T02:30:00+01:00"
      ])
    #expect(
      try fires("30 2 * * *", in: "Europe/Berlin", after: "2027-10-31T00:45:00Z", count: 1) == [
        "2027-11-01T02:30:00+01:00"
      ])
  }

  /// Every daily fixed time through a year of both zones' transitions fires exactly once a local day.
  @Test(arguments: ["Europe/Berlin", "America/New_York"])
  func dailyJobsNeverSkipADayNorRunTwice(zoneName: String) throws {
    let timeZone = try zone(zoneName)
    let end = try instant("2028-01-02T00:00:00Z")
    // The hours around both zones' transitions.
    for hour in 0...3 {
      for minute in [0, 30, 59] {
        let schedule = Schedule([Schedule.Entry(try cron("\(minute) \(hour) * * *"), timeZone: timeZone)])
        var cursor = try instant("2026-12-31T12:00:00Z")
        var days: [String] = []
        while let fire = schedule.nextFire(after: cursor), fire.instant < end {
          let text = fire.iso8601
          if text.hasPrefix("2027") { days.append(String(text.prefix(10))) }
          cursor = fire.instant
        }
        #expect(days.count == 365, "\(minute) \(hour) in \(zoneName)")
        #expect(Set(days).count == days.count, "\(minute) \(hour) in \(zoneName) ran twice on a day")
      }
    }
  }

  /// The zone's table reaches far ahead: summer and winter still differ in 2399.
  @Test func transitionsAreKnownFarAhead() throws {
    #expect(
      try fires("0 12 1 1,7 *", in: "Europe/Berlin", after: "2399-01-01T00:00:00Z", count: 2) == [
        "2399-01-01T12:00:00+01:00", "2399-07-01T12:00:00+02:00",
      ])
  }
}
