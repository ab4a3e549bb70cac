import FoundationEssentials
import _FoundationICU

/// A regular expression from a workflow, with a readable error when it does not compile, and a time budget
/// for each evaluation: the actions' patterns (`match-text`, `replace-text`, `filter`) and a condition's
/// `matches`, so that a pattern has one dialect and one bound wherever it is written.
///
/// The engine is ICU's regular expressions (the one `NSRegularExpression` wraps, called here directly so
/// that the binary does not link swift-corelibs-foundation), which backtracks: `(a+)+$` on 36 a's and a b
/// took 24 s. ICU calls back during a long match, so every evaluation stops when it passes its budget
/// (``budget``, 1 s; a real pattern on a real text takes microseconds) or when the run is cancelled, with an
/// error naming the pattern. The dialect stays ICU's, which every existing workflow is written in; a
/// non-backtracking engine (glibc's `regexec`) would have dropped `\d`, lazy quantifiers and lookahead.

public struct TextPattern {
  let expression: CompiledPattern
  public let pattern: String
  /// How long one evaluation (all the matches in one text) may take.
  public let budget: Duration

  /// The budget every evaluation gets unless a test gives a smaller one.
  public static let defaultBudget: Duration = .seconds(1)

  public init(_ pattern: String, caseSensitive: Bool, budget: Duration = defaultBudget) throws {
    guard let expression = CompiledPattern(pattern, caseSensitive: caseSensitive) else {
      throw AppIntentError.failed(
        "'\(pattern)' is not a valid regular expression",
        help: "escape special characters such as '(' and '[' with a backslash")
    }
    self.expression = expression
    self.pattern = pattern
    self.budget = budget
  }

  /// Why `pattern`, written out in a step, would not compile (for `flow validate`); nil when it does.
  public static func problem(_ pattern: FlowValue?) -> CoercionError? {
    guard case .text(let text)? = pattern, CompiledPattern(text, caseSensitive: true) == nil else { return nil }
    return CoercionError(
      message: "'\(text)' is not a valid regular expression",
      help: "escape special characters such as '(' and '[' with a backslash")
  }

  /// Builds a pattern that matches `text` literally.
  public init(literal text: String, caseSensitive: Bool) throws {
    try self.init(Self.escaped(text), caseSensitive: caseSensitive)
  }

  /// `text` with each character the dialect gives a meaning outside a set (`*?+[(){}^$|\./`) escaped.
  static func escaped(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      if "*?+[(){}^$|\\./".unicodeScalars.contains(scalar) { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(scalar)
    }
    return escaped
  }

  /// A template that writes `text` as it is: its `$` and backslashes escaped.
  public static func literalTemplate(_ text: String) -> String {
    var template = ""
    for scalar in text.unicodeScalars {
      if scalar == "$" || scalar == "\\" { template.unicodeScalars.append("\\") }
      template.unicodeScalars.append(scalar)
    }
    return template
  }

  /// The matched texts, in order.
  public func matches(in text: String) throws -> [String] {
    var found: [String] = []
    try evaluate(text) { match in found.append(match.text(0)) }
    return found
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
    var first: (text: String, groups: [String])?
    try evaluate(text, first: true) { match in
      first = (match.text(0), groups.map { match.text(named: $0) })
    }
    return first
  }

  /// `text` with every match replaced; in `template`, `$1` is a group's text and a backslash takes the
  /// character after it literally (`NSRegularExpression`'s templates).
  public func replacing(in text: String, with template: String) throws -> String {
    var result = ""
    var position = 0
    var matched = false
    try evaluate(text) { match in
      let range = match.range(0)
      result += match.source(position..<range.lowerBound)
      result += match.expanding(template)
      position = range.upperBound
      matched = true
    }
    guard matched else { return text }
    let rest = text.utf16.index(text.utf16.startIndex, offsetBy: position)
    result += String(text.unicodeScalars[rest...])
    return result
  }

  /// Whether the pattern matches anywhere in `text` (a condition's `matches`); stops at the first match.
  public func hasMatch(in text: String) throws -> Bool {
    var found = false
    try evaluate(text, first: true) { _ in found = true }
    return found
  }

  /// Calls `body` with every match, or with the first only; throws the budget's error. ICU calls back while
  /// a match runs long, which is where the clock and cancellation are read.
  private func evaluate(_ text: String, first: Bool = false, _ body: (PatternMatch) -> Void) throws {
    // Ends in a 0 that ICU is not given, so that even empty text has an address for ICU to hold.
    let units = Array(text.utf16) + [0]
    let watch = MatchWatch(deadline: ContinuousClock.now.advanced(by: budget))
    var status = U_ZERO_ERROR
    guard let regex = swift_uregex_clone(expression.regex, &status), status.rawValue <= 0 else {
      throw AppIntentError.failed("matching '\(pattern)' failed: ICU could not copy the pattern")
    }
    defer { swift_uregex_close(regex) }
    try withExtendedLifetime(watch) {
      try units.withUnsafeBufferPointer { buffer in
        swift_uregex_setText(regex, buffer.baseAddress, Int32(buffer.count - 1), &status)
        swift_uregex_setMatchCallback(
          regex,
          { context, _ in
            guard let context else { return 1 }
            return Unmanaged<MatchWatch>.fromOpaque(context).takeUnretainedValue().goesOn() ? 1 : 0
          }, Unmanaged.passUnretained(watch).toOpaque(), &status)
        while status.rawValue <= 0, swift_uregex_findNext(regex, &status) != 0 {
          body(PatternMatch(regex: regex, units: buffer))
          if first { break }
        }
      }
    }
    if watch.cancelled { throw CancellationError() }
    if watch.late {
      throw AppIntentError.failed(
        "matching '\(pattern)' took longer than \(Self.words(budget)), so it was stopped",
        help: "the pattern backtracks: avoid a repetition inside a repetition, such as '(a+)+'")
    }
    if status.rawValue > 0 {
      throw AppIntentError.failed(
        "matching '\(pattern)' failed: \(String(cString: swift_u_errorName(status)))",
        help: "a repeated group over a long text can exhaust ICU's memory for it; repeat a set, such as '[ab]*'")
    }
  }

  /// "1 s", "20 ms".
  public static func words(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
  }
}

/// ICU's compiled pattern, which each evaluation copies (`uregex_clone`): one compiled pattern may not
/// match on two threads at once, and the copy is cheap.
final class CompiledPattern: @unchecked Sendable {
  let regex: OpaquePointer

  init?(_ pattern: String, caseSensitive: Bool) {
    let units = Array(pattern.utf16)
    var status = U_ZERO_ERROR
    var error = UParseError()
    let flags = caseSensitive ? 0 : UInt32(UREGEX_CASE_INSENSITIVE.rawValue)
    guard let regex = swift_uregex_open(units, Int32(units.count), flags, &error, &status), status.rawValue <= 0
    else { return nil }
    self.regex = regex
  }

  deinit { swift_uregex_close(regex) }
}

/// What ICU's callback reads during one evaluation: the deadline, and whether the run was cancelled.
private final class MatchWatch {
  let deadline: ContinuousClock.Instant
  var late = false
  var cancelled = false

  init(deadline: ContinuousClock.Instant) { self.deadline = deadline }

  func goesOn() -> Bool {
    if Task.isCancelled {
      cancelled = true
    } else if ContinuousClock.now >= deadline {
      late = true
    }
    return !late && !cancelled
  }
}

/// The match ICU is on, read through its UTF-16 offsets into the text.
private struct PatternMatch {
  let regex: OpaquePointer
  let units: UnsafeBufferPointer<UInt16>

  /// Group `group`'s offsets; an empty range at the start for a group that took no part.
  func range(_ group: Int32) -> Range<Int> {
    var status = U_ZERO_ERROR
    let start = swift_uregex_start(regex, group, &status)
    let end = swift_uregex_end(regex, group, &status)
    guard status.rawValue <= 0, start >= 0, end >= start else { return 0..<0 }
    return Int(start)..<Int(end)
  }

  func source(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: units[range]), as: UTF16.self)
  }

  func text(_ group: Int32) -> String { source(range(group)) }

  func text(named name: String) -> String {
    let units = Array(name.utf16)
    var status = U_ZERO_ERROR
    let group = swift_uregex_groupNumberFromName(regex, units, Int32(units.count), &status)
    return status.rawValue > 0 ? "" : text(group)
  }

  /// `template` with `$n` replaced by group n's text (as many digits as the pattern has groups can take,
  /// an unknown group giving nothing) and `\\c` giving `c`.
  func expanding(_ template: String) -> String {
    var status = U_ZERO_ERROR
    let ranges = Int(swift_uregex_groupCount(regex, &status)) + 1
    var digits = 1
    var magnitude = 10
    while magnitude < ranges && digits < 20 {
      digits += 1
      magnitude *= 10
    }
    var result = String.UnicodeScalarView()
    var scalars = template.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\\":
        if let next = scalars.popFirst() { result.append(next) }
      case "$":
        let number = scalars.prefix(digits).prefix { ("0"..."9").contains($0) }
        guard !number.isEmpty else {
          result.append(scalar)
          continue
        }
        scalars = scalars.dropFirst(number.count)
        let group = number.reduce(0) { $0 * 10 + Int($1.value - 48) }
        if group < ranges { result.append(contentsOf: text(Int32(group)).unicodeScalars) }
      default:
        result.append(scalar)
      }
    }
    return String(result)
  }
}
