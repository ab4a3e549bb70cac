import FlowDiagnostics
import FoundationEssentials

/// Times and durations as run history shows them: `flow runs`, `--json` and the scheduler's log.
public enum HistoryText {
  /// `2026-11-23T08:00:01.250Z`: UTC, to the millisecond.
  ///
  /// As Foundation's `ISO8601DateFormatter` wrote it, whose records these are: the instant is taken from the
  /// reference date to 1970 and to milliseconds in floating point, then rounded half up (so 0.9995 s after
  /// a second reads as the next one). HistoryTextTests compares the two on 100,000 instants.
  public static func timestamp(_ date: Date) -> String {
    let milliseconds = Int64(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down))
    let seconds = CivilTime.floorDivide(milliseconds, 1000)
    let millisecond = milliseconds - seconds * 1000
    let days = CivilTime.floorDivide(seconds, CivilTime.secondsPerDay)
    let secondOfDay = seconds - days * CivilTime.secondsPerDay
    let (year, month, day) = CivilTime.date(days: days)
    func padded(_ value: some BinaryInteger, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(secondOfDay / 3600, 2)):"
      + "\(padded(secondOfDay % 3600 / 60, 2)):\(padded(secondOfDay % 60, 2)).\(padded(millisecond, 3))Z"
  }

  /// "0.3 ms", "850 ms", "12.4 s", "3 min 05 s", "2 h 07 min".
  public static func duration(_ seconds: TimeInterval) -> String {
    switch seconds {
    case ..<0.01: PlainText.format("%.1f ms", seconds * 1000)
    case ..<1: "\(Int((seconds * 1000).rounded())) ms"
    case ..<60: PlainText.format("%.1f s", seconds)
    case ..<3600: PlainText.format("%d min %02d s", Int(seconds) / 60, Int(seconds) % 60)
    default: PlainText.format("%d h %02d min", Int(seconds) / 3600, Int(seconds) % 3600 / 60)
    }
  }
}
