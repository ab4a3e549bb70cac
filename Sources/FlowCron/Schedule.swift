import FoundationEssentials

/// When a workflow fires: one or more cron expressions, each in its time zone, merged into one ordered
/// stream of fire times. What `flow schedule next` prints and what a scheduler sleeps until.
///
/// Daylight saving follows cronie, so that a daily job never skips a day and never runs twice:
///
/// - A local time that does not exist (the hour skipped when clocks spring forward) fires a fixed-time
///   expression once, at the first instant after the gap: `30 2 * * *` in Europe/Berlin on 2027-03-28
///   fires at 03:00 CEST. A wildcard expression (minute or hour starting with `*`) follows elapsed time:
///   its times inside the gap do not exist and are not made up.
/// - A local time that occurs twice (the hour repeated when clocks fall back) fires a fixed-time
///   expression once, at the first occurrence; a wildcard expression fires at both.
public struct Schedule: Sendable {
  public struct Entry: Sendable {
    public let expression: CronExpression
    public let timeZone: TimeZone
    /// The zone's name as written (Foundation calls "UTC" "GMT"); what the units say.
    public let zoneName: String
    let rules: ZoneRules

    public init(_ expression: CronExpression, timeZone: TimeZone, zoneName: String? = nil) {
      self.expression = expression
      self.timeZone = timeZone
      self.zoneName = zoneName ?? timeZone.identifier
      self.rules = ZoneRules.for(timeZone)
    }
  }

  /// One fire: when, and which entries fire then.
  public struct Fire: Sendable, Hashable {
    /// Seconds since 1970; fires fall on whole minutes of their zone.
    public let instant: Int64
    /// The positions in ``Schedule/entries`` of the expressions that fire at this instant.
    public let entries: [Int]
    /// The offset from UTC, in seconds, of the zone of the first of them at this instant.
    public let utcOffset: Int

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(instant)) }

    /// `2026-11-30T09:00:00+01:00`: local time in the zone of the first expression that fires.
    public var iso8601: String { ISO8601Text.format(instant, utcOffset: utcOffset) }
  }

  public let entries: [Entry]

  public init(_ entries: [Entry]) {
    self.entries = entries
  }

  /// The first fire strictly after `date`; nil when no expression fires again (within 400 years).
  public func nextFire(after date: Date) -> Fire? {
    nextFire(after: Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  /// The first fire strictly after the instant `after` (seconds since 1970).
  public func nextFire(after instant: Int64) -> Fire? {
    var best = Int64.max
    var firing: [Int] = []
    for (index, entry) in entries.enumerated() {
      guard let next = entry.next(after: instant) else { continue }
      if next < best {
        best = next
        firing = [index]
      } else if next == best {
        firing.append(index)
      }
    }
    guard let first = firing.first else { return nil }
    return Fire(instant: best, entries: firing, utcOffset: Int(entries[first].rules.offset(at: best)))
  }

  /// The next `count` fires after `date`, in order.
  public func fires(after date: Date, count: Int) -> [Fire] {
    var fires: [Fire] = []
    var cursor = Int64(date.timeIntervalSince1970.rounded(.down))
    while fires.count < count, let fire = nextFire(after: cursor) {
      fires.append(fire)
      cursor = fire.instant
    }
    return fires
  }
}

extension Schedule.Entry {
  /// The first fire of this expression strictly after `instant`, with cronie's daylight-saving rules.
  ///
  /// Works period by period of constant UTC offset: within one the local times map one to one onto
  /// instants, so the search is ``CronExpression/nextLocal(atOrAfter:)`` shifted by the offset. Where a
  /// period starts with clocks springing forward, a fixed-time expression matching inside the skipped
  /// local times fires at the period's first instant; where it starts with clocks falling back, a
  /// fixed-time expression skips the local times its previous period already passed through.
  func next(after instant: Int64) -> Int64? {
    let expression = self.expression
    let transitions = rules.transitions
    let offsets = rules.offsets
    let fixedTime = !expression.isWildcardTime
    var period = rules.period(containing: instant)
    var from = instant + 1
    while true {
      let offset = offsets[period]
      var localStart = from + offset
      if period > 0 {
        let start = transitions[period - 1]
        let before = offsets[period - 1]
        if fixedTime, from <= start, offset > before,
          let skipped = expression.nextLocal(atOrAfter: start + before), skipped < start + offset
        {
          return start
        }
        if fixedTime, before > offset { localStart = max(localStart, start + before) }
      }
      guard let local = expression.nextLocal(atOrAfter: localStart) else { return nil }
      guard period < transitions.count, local - offset >= transitions[period] else { return local - offset }
      from = transitions[period]
      period += 1
    }
  }
}
