import FlowCron
import FoundationEssentials

extension Schedule {
  /// The fires after `start` up to and including `end`: the first, and how many (counted up to
  /// `limit`); nil when there are none. What a catch-up runs once for.
  public func fires(after start: Date, through end: Date, limit: Int = 100_000) -> (first: Fire, count: Int)? {
    let last = Int64(end.timeIntervalSince1970.rounded(.down))
    guard let first = nextFire(after: start), first.instant <= last else { return nil }
    var count = 1
    var cursor = first.instant
    while count < limit, let fire = nextFire(after: cursor), fire.instant <= last {
      count += 1
      cursor = fire.instant
    }
    return (first, count)
  }
}

extension Schedule.Entry: Equatable {
  /// The same expression in the same zone.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.expression == rhs.expression && lhs.zoneName == rhs.zoneName
      && lhs.timeZone.identifier == rhs.timeZone.identifier
  }
}

extension Schedule: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.entries == rhs.entries }
}
