import FoundationEssentials

/// Raindrop's timestamps: ISO 8601 in UTC, written with milliseconds (`2025-07-02T05:21:12.185Z`) and read with
/// or without them, as the reference observed both.
public enum RaindropDate {
  public static func format(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  public static func parse(_ text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}
