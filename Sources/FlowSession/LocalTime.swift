import FlowDiagnostics
import FoundationEssentials

/// Times as a person reads them: in the local time zone (`TZ` from the context's environment, else the
/// system's), to the second.
public struct LocalTime {
  public let zone: TimeZone

  public init(_ context: SessionContext) {
    // TZ may name a zone file with a leading ':' (POSIX); anything TimeZone cannot read means the system's.
    let name = context.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
    zone = name.flatMap { TimeZone(identifier: $0) } ?? TimeZone.current
  }

  /// `2026-11-23 09:00:01`.
  public func format(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return PlainText.format(
      "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
      parts.minute ?? 0, parts.second ?? 0)
  }

  /// `2026-11-23 09:00:01 +01:00`: with the offset, where the zone matters (`flow runs show`).
  public func formatWithOffset(_ date: Date) -> String {
    let seconds = zone.secondsFromGMT(for: date)
    let sign = seconds < 0 ? "-" : "+"
    return format(date) + " " + sign + PlainText.format("%02d:%02d", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
  }
}
