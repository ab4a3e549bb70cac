import FoundationEssentials
import Synchronization

/// A time zone's offsets from UTC as a table of transitions, for the next-fire search.
///
/// `TimeZone.secondsFromGMT(for:)` costs about 100 ns and the search needs the offsets around every fire,
/// so the transitions from 1900 to 2400 are read once per zone (about 1,000 for Europe/Berlin, in about
/// a millisecond) and shared: ``ZoneRules/for(_:)`` keeps one table per zone for the life of the process.
public final class ZoneRules: Sendable {
  public let timeZone: TimeZone
  /// Instants (seconds since 1970) where the offset changes, in order.
  let transitions: [Int64]
  /// `offsets[i]` holds from `transitions[i - 1]` up to `transitions[i]`; there is one more offset than
  /// transitions.
  let offsets: [Int64]

  /// The first instant the table covers; before it the first offset holds.
  static let start = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
  /// The last: Foundation extends a zone's current rules forever, so the table stops here, about a
  /// thousand transitions for a zone with daylight saving. Later fires use the last offset.
  static let end = Date(timeIntervalSince1970: 13_569_465_600)  // 2400-01-01

  public init(_ timeZone: TimeZone) {
    self.timeZone = timeZone
    var transitions: [Int64] = []
    var offsets: [Int64] = [Int64(timeZone.secondsFromGMT(for: Self.start))]
    var cursor = Self.start
    while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next > cursor, next < Self.end {
      let offset = Int64(timeZone.secondsFromGMT(for: next))
      if offset != offsets[offsets.count - 1] {
        transitions.append(Int64(next.timeIntervalSince1970.rounded(.down)))
        offsets.append(offset)
      }
      cursor = next
    }
    self.transitions = transitions
    self.offsets = offsets
  }

  /// The rules of `timeZone`, built once per process and zone.
  public static func `for`(_ timeZone: TimeZone) -> ZoneRules {
    cache.withLock { cache in
      if let rules = cache[timeZone.identifier] { return rules }
      let rules = ZoneRules(timeZone)
      cache[timeZone.identifier] = rules
      return rules
    }
  }

  private static let cache = Mutex<[String: ZoneRules]>([:])

  /// The index of the period holding `instant`: the offset is `offsets[index]`, the period starts at
  /// `transitions[index - 1]` (if any) and ends at `transitions[index]` (if any).
  @inline(__always)
  func period(containing instant: Int64) -> Int {
    // Most zones have no transitions at all, and fires of one search share a period.
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) / 2
      if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The offset from UTC, in seconds, at `instant`.
  public func offset(at instant: Int64) -> Int64 {
    offsets[period(containing: instant)]
  }
}
