import FlowDiagnostics
import FoundationEssentials

/// Dates in text: ISO 8601 in, ISO 8601 out, so a date survives a round trip through text.
public enum DateParsing {
  /// Parses `2026-11-21`, `2026-11-21T14:30:00Z`, `2026-11-21T14:30:00+02:00`, `2026-11-21 14:30`
  /// (times without a zone are UTC), with optional fractional seconds.
  public static func parse(_ text: String) -> Date? {
    let trimmed = text.trimmingWhitespace()
    // Every format is ASCII, so other text is no date, and never reaches ICU.
    guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let formats = candidates(
      [
        "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss",
        "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
      ], for: trimmed)
    for format in formats {
      if let date = UnicodeDateFormat(pattern: format, timeZone: "UTC")?.date(from: trimmed) { return date }
    }
    return nil
  }

  /// Which of `formats` (each `yyyy-MM-dd`, then `'T'` and a time, a space and a time, or nothing) can
  /// read `text`, by its shape: digits, '-', digits, '-', digits (ICU takes any count of each), then what
  /// follows. A format is an ICU object that costs a tenth of a millisecond to make, so text that is
  /// no date never gets one.
  static func candidates(_ formats: [String], for text: String) -> [String] {
    let bytes = Array(text.utf8)
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
    guard digits(), dash(), digits(), dash(), digits() else { return [] }
    let next = index == bytes.count ? nil : bytes[index]
    return formats.filter { format in
      switch next {
      case nil: format == "yyyy-MM-dd"
      case UInt8(ascii: "T"), UInt8(ascii: "t"): format.contains("'T'")
      case UInt8(ascii: " "), UInt8(ascii: "\t"): format.contains(" HH")
      default: false
      }
    }
  }

  /// ISO 8601 in UTC: `2026-11-21T14:30:00Z`.
  public static func format(_ date: Date) -> String {
    UnicodeDateFormat(pattern: "yyyy-MM-dd'T'HH:mm:ss'Z'", timeZone: "UTC")?.string(from: date) ?? ""
  }
}
