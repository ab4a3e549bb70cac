import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Glibc

/// Evaluates arithmetic written as text: `+ - * / % ^`, parentheses, unary minus, and the functions
/// `abs`, `round`, `floor`, `ceil`, `sqrt`, `min`, `max`.
///
/// A small recursive-descent parser: `calculate` takes one expression instead of Shortcuts' separate
/// operand fields because workflows are text, and `${count} * 2 + 1` reads as what it does.
/// Package-visible for the fuzzing harness (`FlowFuzzing`), which feeds `evaluate` what `calculate` would.
public struct Arithmetic {
  private let characters: [Character]
  private var index = 0
  private let source: String
  /// How deep the parser is in parentheses, signs and powers: each is a level of recursion, and 10,000 of
  /// them overflowed the stack (issue 16). No arithmetic a person writes nests a hundred deep.
  private var depth = 0
  static let maximumDepth = 100
  /// Set when the depth limit stopped the parse, so that ``checkNesting(_:)`` can tell it from the
  /// problems only a run reports.
  private var tooDeep = false

  public static func evaluate(_ expression: String) throws -> Double {
    var parser = Arithmetic(source: expression)
    return try parser.evaluate()
  }

  /// Throws when `expression` nests deeper than ``maximumDepth``: the check `flow validate` makes of a
  /// literal expression. Other problems (a typo, a division by zero) are left to the run, as before.
  static func checkNesting(_ expression: String) throws(CoercionError) {
    var parser = Arithmetic(source: expression)
    do { _ = try parser.evaluate() } catch {
      guard parser.tooDeep else { return }
      throw CoercionError(
        message: "the expression nests more than \(maximumDepth) deep",
        help: "write it with fewer parentheses and signs")
    }
  }

  private mutating func evaluate() throws -> Double {
    let expression = source
    skipSpaces()
    guard !atEnd else { throw failure("the expression is empty") }
    let value = try sum()
    skipSpaces()
    guard atEnd else { throw failure("unexpected '\(characters[index])'") }
    guard value.isFinite else { throw AppIntentError.failed("'\(Self.shown(expression))' has no finite result") }
    return value
  }

  /// One level deeper, or the depth error.
  private mutating func enter() throws {
    depth += 1
    guard depth <= Self.maximumDepth else {
      tooDeep = true
      throw failure("it nests more than \(Self.maximumDepth) deep (parentheses, signs and powers)")
    }
  }

  /// The expression for a message: a long one is cut, so that an error does not repeat pages of it.
  private static func shown(_ expression: String) -> String {
    expression.count > 60 ? expression.prefix(57) + "…" : expression
  }

  private init(source: String) {
    self.source = source
    self.characters = Array(source)
  }

  private var atEnd: Bool { index >= characters.count }

  private func failure(_ problem: String) -> AppIntentError {
    AppIntentError.failed(
      "cannot calculate '\(Self.shown(source))': \(problem)",
      help: "write arithmetic such as '(2 + 3) * 4' or 'round(10 / 3)'")
  }

  /// Dividing by zero is not a typo in the expression but a value it was given, so the help says how to
  /// guard against the value rather than how to write arithmetic.
  private func divisionByZero() -> AppIntentError {
    AppIntentError.failed(
      "cannot calculate '\(Self.shown(source))': division by zero",
      help: "the divisor is 0 here; skip the step when it would be, with 'when: ${…} != 0'")
  }

  private mutating func skipSpaces() {
    while !atEnd, characters[index].isWhitespace { index += 1 }
  }

  private mutating func take(_ character: Character) -> Bool {
    skipSpaces()
    guard !atEnd, characters[index] == character else { return false }
    index += 1
    return true
  }

  private mutating func sum() throws -> Double {
    var value = try product()
    while true {
      if take("+") { value += try product() } else if take("-") { value -= try product() } else { return value }
    }
  }

  private mutating func product() throws -> Double {
    var value = try power()
    while true {
      if take("*") || take("×") {
        value *= try power()
      } else if take("/") || take("÷") {
        let divisor = try power()
        guard divisor != 0 else { throw divisionByZero() }
        value /= divisor
      } else if take("%") {
        let divisor = try power()
        guard divisor != 0 else { throw divisionByZero() }
        value = value.truncatingRemainder(dividingBy: divisor)
      } else {
        return value
      }
    }
  }

  private mutating func power() throws -> Double {
    let base = try unary()
    guard take("^") else { return base }
    // Right-associative: 2^3^2 = 2^9.
    try enter()
    let exponent = try power()
    depth -= 1
    return pow(base, exponent)
  }

  private mutating func unary() throws -> Double {
    let negate: Bool
    if take("-") { negate = true } else if take("+") { negate = false } else { return try primary() }
    try enter()
    let value = try unary()
    depth -= 1
    return negate ? -value : value
  }

  private mutating func primary() throws -> Double {
    skipSpaces()
    guard !atEnd else { throw failure("expected a number at the end") }
    if take("(") {
      try enter()
      let value = try sum()
      guard take(")") else { throw failure("missing ')'") }
      depth -= 1
      return value
    }
    let start = index
    if characters[index].isLetter {
      while !atEnd, characters[index].isLetter { index += 1 }
      let name = String(characters[start..<index]).lowercased()
      guard take("(") else { throw failure("unknown name '\(name)'") }
      try enter()
      var arguments = [try sum()]
      while take(",") { arguments.append(try sum()) }
      guard take(")") else { throw failure("missing ')'") }
      depth -= 1
      return try call(name, arguments)
    }
    while !atEnd,
      characters[index].isNumber || characters[index] == "." || characters[index] == "e"
        || ((characters[index] == "-" || characters[index] == "+") && index > start && characters[index - 1] == "e")
    {
      index += 1
    }
    guard index > start, let number = Double(String(characters[start..<index])) else {
      throw failure("expected a number, got '\(characters[start])'")
    }
    return number
  }

  private func call(_ name: String, _ arguments: [Double]) throws -> Double {
    switch (name, arguments.count) {
    case ("abs", 1): return abs(arguments[0])
    case ("round", 1): return arguments[0].rounded()
    case ("floor", 1): return arguments[0].rounded(.down)
    case ("ceil", 1): return arguments[0].rounded(.up)
    case ("sqrt", 1):
      guard arguments[0] >= 0 else { throw failure("the square root of a negative number") }
      return arguments[0].squareRoot()
    case ("min", _): return arguments.min() ?? 0
    case ("max", _): return arguments.max() ?? 0
    default: throw failure("unknown function '\(name)' with \(Count.of(arguments.count, "argument"))")
    }
  }
}
