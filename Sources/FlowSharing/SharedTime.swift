import Foundation

/// Times as shared files and provenance records write them: `2026-11-23T09:15:00Z`, to the second.
package enum SharedTime {
  package static func format(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
  }

  package static func parse(_ text: String) -> Date? {
    try? Date(text, strategy: Date.ISO8601FormatStyle())
  }
}
