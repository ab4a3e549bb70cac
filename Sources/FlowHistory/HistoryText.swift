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
    let (seconds, millisecond) = floorDivision(milliseconds, 1000)
    let (days, secondOfDay) = floorDivision(seconds, 86_400)
    // Days since 1970 to the proleptic Gregorian date (Howard Hinnant's civil_from_days).
    let shifted = days + 719_468
    let era = floorDivision(shifted, 146_097).quotient
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func padded(_ value: Int64, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(secondOfDay / 3600, 2)):"
      + "\(padded(secondOfDay % 3600 / 60, 2)):\(padded(secondOfDay % 60, 2)).\(padded(millisecond, 3))Z"
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
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
