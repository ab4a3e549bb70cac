import Foundation
import Synchronization

/// Dates in text: ISO 8601 in, ISO 8601 out, so a date survives a round trip through text.
public enum DateParsing {
  /// The formats `parse` tries, in order.
  static let formats = [
    "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss",
    "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
  ]

  /// The formatters, made once: making one loads the calendar's data, which was most of the time of
  /// reading a date (eight formatters a text). A formatter is not safe to share between threads, so they
  /// are used under a lock.
  private static let formatters = Mutex(
    (parsing: formats.map { formatter($0) }, writing: formatter("yyyy-MM-dd'T'HH:mm:ss'Z'")))

  private static func formatter(_ format: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = format
    formatter.isLenient = false
    return formatter
  }

  /// Parses `2026-11-21`, `2026-11-21T14:30:00Z`, `2026-11-21T14:30:00+02:00`, `2026-11-21 14:30`
  /// (times without a zone are UTC), with optional fractional seconds.
  public static func parse(_ text: String) -> Date? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return formatters.withLock { formatters in
      for formatter in formatters.parsing {
        if let date = formatter.date(from: trimmed) { return date }
      }
      return nil
    }
  }

  /// ISO 8601 in UTC: `2026-11-21T14:30:00Z`.
  public static func format(_ date: Date) -> String {
    formatters.withLock { $0.writing.string(from: date) }
  }
}
