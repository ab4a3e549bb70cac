import Foundation

/// Times and durations as run history shows them: `flow runs`, `--json` and the scheduler's log.
public enum HistoryText {
  /// `2026-11-23T08:00:01.250Z`: UTC, to the millisecond.
  public static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }

  /// "0.3 ms", "850 ms", "12.4 s", "3 min 05 s", "2 h 07 min".
  public static func duration(_ seconds: TimeInterval) -> String {
    switch seconds {
    case ..<0.01: String(format: "%.1f ms", seconds * 1000)
    case ..<1: "\(Int((seconds * 1000).rounded())) ms"
    case ..<60: String(format: "%.1f s", seconds)
    case ..<3600: String(format: "%d min %02d s", Int(seconds) / 60, Int(seconds) % 60)
    default: String(format: "%d h %02d min", Int(seconds) / 3600, Int(seconds) % 3600 / 60)
    }
  }
}
