import Foundation

/// A regular expression from a workflow, with a readable error when it does not compile, and a time budget
/// for each evaluation: the actions' patterns (`match-text`, `replace-text`, `filter`) and a condition's
/// `matches`, so that a pattern has one dialect and one bound wherever it is written.
///
/// The engine is ICU's (through `NSRegularExpression`), which backtracks: `(a+)+$` on 36 a's and a b took
/// 24 s. ICU reports progress during a long match, so every evaluation stops when it passes its budget
/// (``budget``, 1 s; a real pattern on a real text takes microseconds) or when the run is cancelled, with an
/// error naming the pattern. The dialect stays ICU's, which every existing workflow is written in; a
/// non-backtracking engine (glibc's `regexec`) would have dropped `\d`, lazy quantifiers and lookahead.
public struct TextPattern {
  let expression: NSRegularExpression
  public let pattern: String
  /// How long one evaluation (all the matches in one text) may take.
  public let budget: Duration

  /// The budget every evaluation gets unless a test gives a smaller one.
  public static let defaultBudget: Duration = .seconds(1)

  public init(_ pattern: String, caseSensitive: Bool, budget: Duration = defaultBudget) throws {
    do {
      expression = try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
    } catch {
      throw AppIntentError.failed(
        "'\(pattern)' is not a valid regular expression",
        help: "escape special characters such as '(' and '[' with a backslash")
    }
    self.pattern = pattern
    self.budget = budget
  }

  /// Why `pattern`, written out in a step, would not compile (for `flow validate`); nil when it does.
  public static func problem(_ pattern: FlowValue?) -> CoercionError? {
    guard case .text(let text)? = pattern, (try? NSRegularExpression(pattern: text)) == nil else { return nil }
    return CoercionError(
      message: "'\(text)' is not a valid regular expression",
      help: "escape special characters such as '(' and '[' with a backslash")
  }

  /// Builds a pattern that matches `text` literally.
  public init(literal text: String, caseSensitive: Bool) throws {
    try self.init(NSRegularExpression.escapedPattern(for: text), caseSensitive: caseSensitive)
  }

  /// The matched texts, in order.
  public func matches(in text: String) throws -> [String] {
    try ranges(in: text).compactMap { range in Range(range, in: text).map { String(text[$0]) } }
  }

  /// The names of the pattern's named groups, `(?<year>…)`, in order; a backslash escapes a `(`.
  public static func groupNames(in pattern: String) -> [String] {
    var names: [String] = []
    var scalars = pattern.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      if scalar == "\\" {
        _ = scalars.popFirst()
        continue
      }
      guard scalar == "(", scalars.starts(with: "?<".unicodeScalars) else { continue }
      let rest = scalars.dropFirst(2)
      let name = rest.prefix { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
      // `(?<=` and `(?<!` are look-behinds, not names.
      guard let first = name.first, first.properties.isAlphabetic, rest.dropFirst(name.count).first == ">" else {
        continue
      }
      names.append(String(String.UnicodeScalarView(name)))
    }
    return names
  }

  /// The first match and the text of each named group in it (empty for a group that took no part).
  public func firstMatch(in text: String, groups: [String]) throws -> (text: String, groups: [String])? {
    guard let match = try results(in: text, first: true).first else { return nil }
    let source = text as NSString
    let captured = groups.map { name in
      let range = match.range(withName: name)
      return range.location == NSNotFound ? "" : source.substring(with: range)
    }
    return (source.substring(with: match.range), captured)
  }

  /// `text` with every match replaced; `$1` in a template refers to a group.
  public func replacing(in text: String, with template: String) throws -> String {
    let matches = try results(in: text)
    let source = text as NSString
    var result = ""
    var position = 0
    for match in matches {
      result += source.substring(with: NSRange(location: position, length: match.range.location - position))
      result += expression.replacementString(for: match, in: text, offset: 0, template: template)
      position = match.range.location + match.range.length
    }
    result += source.substring(from: position)
    return result
  }

  /// Whether the pattern matches anywhere in `text` (a condition's `matches`); stops at the first match.
  public func hasMatch(in text: String) throws -> Bool {
    try !results(in: text, first: true).isEmpty
  }

  private func ranges(in text: String) throws -> [NSRange] {
    try results(in: text).map(\.range)
  }

  /// Every match, or the budget's error. ICU calls the block with `.progress` while a match runs long,
  /// which is where the clock and cancellation are read.
  private func results(in text: String, first: Bool = false) throws -> [NSTextCheckingResult] {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: budget)
    var found: [NSTextCheckingResult] = []
    var stopped: (any Error)?
    expression.enumerateMatches(
      in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)
    ) { match, _, stop in
      if let match {
        found.append(match)
        if first { stop.pointee = true }
      }
      if Task.isCancelled {
        stopped = CancellationError()
      } else if clock.now >= deadline {
        stopped = AppIntentError.failed(
          "matching '\(pattern)' took longer than \(Self.words(budget)), so it was stopped",
          help: "the pattern backtracks: avoid a repetition inside a repetition, such as '(a+)+'")
      }
      if stopped != nil { stop.pointee = true }
    }
    if let stopped { throw stopped }
    return found
  }

  /// "1 s", "20 ms".
  public static func words(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
  }
}
