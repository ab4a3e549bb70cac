import FoundationEssentials

/// Times as shared files and provenance records write them: `2026-11-23T09:15:00Z`, to the second.
public enum SharedTime {
  public static func format(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
  }

  public static func parse(_ text: String) -> Date? {
    try? Date(text, strategy: Date.ISO8601FormatStyle())
  }
}
