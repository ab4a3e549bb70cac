import FlowDiagnostics

/// Date arithmetic inside a reference: `${now - 7 days}`, `${file.modified + 1 hour}`.
///
/// The operator has spaces before it, since names may hold `-` (`${week-ago}`). The amount is a whole
/// number from 0 to ``maximumAmount``; the unit is a second, minute, hour, day, week, month or year, in
/// the singular or the plural. The reference is then a date: the checker refuses a value on the left
/// that can never be one, and the run counts days, weeks, months and years in the system's time zone
/// (as `adjust-date` does), so `${now - 1 day}` keeps the time of day across a daylight-saving change.
public struct DateOffset: Sendable, Hashable, CustomStringConvertible {
  public enum Unit: String, Sendable, Hashable, CaseIterable {
    case second, minute, hour, day, week, month, year
  }

  /// Negative for `-`.
  public var amount: Int
  public var unit: Unit
  /// From the operator to the unit's end.
  public var span: SourceSpan

  /// Larger amounts are a typo, and would leave the calendar's range in years.
  public static let maximumAmount = 100_000

  /// `- 7 days`, `+ 1 hour`.
  public var description: String {
    let size = amount.magnitude
    return "\(amount < 0 ? "-" : "+") \(size) \(unit.rawValue)\(size == 1 ? "" : "s")"
  }

  /// What `split` found in the text between `${` and `}`.
  enum Split {
    /// No arithmetic: the text is a plain reference (or malformed for other reasons).
    case none
    /// Arithmetic that does not read; reported.
    case invalid
    case offset(base: String, DateOffset)
  }

  /// Splits `name.path - 7 days` into the reference's text and the offset, reporting what does not read
  /// at its column. `locator` maps offsets in `inside` to the file.
  static func split(_ inside: String, locator: ScalarLocator, into diagnostics: inout Diagnostics) -> Split {
    // An operator follows a space or a tab: most references (`${saved.title}`) have neither.
    guard inside.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return .none }
    let scalars = Array(inside.unicodeScalars)
    func isSpace(_ index: Int) -> Bool { index < scalars.count && (scalars[index] == " " || scalars[index] == "\t") }
    // The first '+' or '-' that has a space before it.
    guard
      let operatorIndex = scalars.indices.first(where: {
        ($0 > 0 && isSpace($0 - 1)) && "+-".unicodeScalars.contains(scalars[$0])
      })
    else { return .none }
    var baseEnd = operatorIndex
    while baseEnd > 0, isSpace(baseEnd - 1) { baseEnd -= 1 }
    let base = String(String.UnicodeScalarView(scalars[..<baseEnd]))
    // Words after the operator, with where each starts and ends.
    var words: [(text: String, start: Int, end: Int)] = []
    var index = operatorIndex + 1
    while index < scalars.count {
      if isSpace(index) {
        index += 1
        continue
      }
      let start = index
      while index < scalars.count, !isSpace(index) { index += 1 }
      words.append((String(String.UnicodeScalarView(scalars[start..<index])), start, index))
    }
    let whole = locator.span(operatorIndex, scalars.count)
    let units = Unit.allCases.map { "\($0.rawValue)s" }
    guard words.count == 2 else {
      diagnostics.append(
        Diagnostic(
          .error, .malformedReference,
          words.count < 2
            ? "'\(scalars[operatorIndex]) \(words.map(\.text).joined())' needs an amount and a unit"
            : "date arithmetic takes one amount and one unit, like '- 7 days'",
          at: whole
        )
        .help("write an amount and one of \(List.or(units.map { "'\($0)'" })), like '${now - 7 days}'"))
      return .invalid
    }
    let (number, unitWord) = (words[0], words[1])
    guard number.text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let amount = Int(number.text.prefix(7))
    else {
      diagnostics.append(
        Diagnostic(
          .error, .malformedReference, "'\(number.text)' is not a whole number of \(unitWord.text)",
          at: locator.span(number.start, number.end)
        )
        .help("the amount is a whole number written out, like '- 7 days' or '+ 90 minutes'"))
      return .invalid
    }
    guard number.text.count <= 7, amount <= maximumAmount else {
      diagnostics.append(
        Diagnostic(
          .error, .outOfRange, "the amount must be between 0 and 100,000, got \(number.text)",
          at: locator.span(number.start, number.end)
        )
        .help("count in a larger unit: weeks, months or years"))
      return .invalid
    }
    let spelling = unitWord.text.lowercased()
    let singular = spelling.hasSuffix("s") ? String(spelling.dropLast()) : spelling
    guard let unit = Unit(rawValue: singular) else {
      diagnostics.append(
        Diagnostic(
          .error, .malformedReference, "unknown unit '\(unitWord.text)' in date arithmetic",
          at: locator.span(unitWord.start, unitWord.end)
        )
        .help(
          Suggestion.closest(to: spelling, among: units + Unit.allCases.map(\.rawValue)).map { "did you mean '\($0)'?" }
            ?? "the units are \(List.and(units.map { "'\($0)'" }))"))
      return .invalid
    }
    let sign = scalars[operatorIndex] == "-" ? -1 : 1
    return .offset(base: base, DateOffset(amount: sign * amount, unit: unit, span: whole))
  }
}
