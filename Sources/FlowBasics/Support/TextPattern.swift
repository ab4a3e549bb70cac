import FlowIntents
import Foundation

/// A regular expression from a workflow, with a readable error when it does not compile.
struct TextPattern {
  let expression: NSRegularExpression

  init(_ pattern: String, caseSensitive: Bool) throws {
    do {
      expression = try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
    } catch {
      throw AppIntentError.failed(
        "'\(pattern)' is not a valid regular expression",
        help: "escape special characters such as '(' and '[' with a backslash")
    }
  }

  /// Builds a pattern that matches `text` literally.
  init(literal text: String, caseSensitive: Bool) throws {
    try self.init(NSRegularExpression.escapedPattern(for: text), caseSensitive: caseSensitive)
  }

  /// The matched texts, in order.
  func matches(in text: String) -> [String] {
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).compactMap { match in
      Range(match.range, in: text).map { String(text[$0]) }
    }
  }

  /// `text` with every match replaced; `$1` in a template refers to a group.
  func replacing(in text: String, with template: String) -> String {
    expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
  }
}
