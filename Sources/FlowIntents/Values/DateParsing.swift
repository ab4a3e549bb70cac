import Foundation

/// Dates in text: ISO 8601 in, ISO 8601 out, so a date survives a round trip through text.
public enum DateParsing {
  /// Parses `2026-11-21`, `2026-11-21T14:30:00Z`, `2026-11-21T14:30:00+02:00`, `2026-11-21 14:30`
  /// (times without a zone are UTC), with optional fractional seconds.
  public static func parse(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    // Every format is ASCII; and Foundation's DateFormatter traps on some other text ("Incorrect range",
    // a combining mark after a digit, `2\u{73C}`), so that never reaches it.
    guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let formats = [
      "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss",
      "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    ]
    for format in formats {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = format
      formatter.isLenient = false
      if let date = formatter.date(from: trimmed) { return date }
    }
    return nil
  }

  /// ISO 8601 in UTC: `2026-11-21T14:30:00Z`.
  public static func format(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
    return formatter.string(from: date)
  }
}
