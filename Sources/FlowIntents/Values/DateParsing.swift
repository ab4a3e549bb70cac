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
    // Every format starts with a date — digits, '-', digits, '-', digits (ICU takes any count of each) —
    // and what follows says which formats can fit: a formatter is an ICU object that costs a tenth of a
    // millisecond to make, so text that is no date never gets one.
    let bytes = Array(trimmed.utf8)
    var index = 0
    func digits() -> Bool {
      let start = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
      return index > start
    }
    func dash() -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "-") else { return false }
      index += 1
      return true
    }
    guard digits(), dash(), digits(), dash(), digits() else { return nil }
    let formats: [String] =
      switch index == bytes.count ? nil : bytes[index] {
      case nil: ["yyyy-MM-dd"]
      case UInt8(ascii: "T"):
        [
          "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss",
          "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm",
        ]
      case UInt8(ascii: " "), UInt8(ascii: "\t"): ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"]
      default: []
      }
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
