import FlowDiagnostics
import FlowYAML

/// A condition of `if:` and `when:` (SPEC §1): comparisons, text tests, emptiness, combined with `and`,
/// `or`, `not` and parentheses.
///
/// ```yaml
/// - if: ${bookmark.tags} contains "inbox" and not ${bookmark.favorite}
/// ```
public indirect enum Condition: Sendable, Hashable {
  /// A single value, true when it is "truthy" (true, a non-zero number, non-empty text or list).
  case value(Operand)
  case compare(Operand, Comparison, Operand)
  /// `is empty`, or `is not empty` when `negated`.
  case isEmpty(Operand, negated: Bool)
  case not(Condition)
  case and(Condition, Condition)
  case or(Condition, Condition)

  public enum Comparison: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case contains
    case startsWith = "starts-with"
    case endsWith = "ends-with"
    case matches
  }

  /// Every reference the condition reads, in order.
  public var references: [Reference] {
    switch self {
    case .value(let operand), .isEmpty(let operand, _): operand.references
    case .compare(let lhs, _, let rhs): lhs.references + rhs.references
    case .not(let inner): inner.references
    case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.references + rhs.references
    }
  }
}

/// One side of a comparison.
public struct Operand: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// Text, possibly with references inside (`"${a}-done"`); a lone `${…}` is a whole reference.
    case template(Template)
    case number(Double)
    case bool(Bool)
    case null
  }

  public var kind: Kind
  public var span: SourceSpan

  public var references: [Reference] {
    if case .template(let template) = kind { return template.references }
    return []
  }
}

// MARK: - Parsing

extension Condition {
  /// Parses a condition written as a YAML value: a boolean or number stands for itself, text is parsed
  /// with the grammar above. Problems go to `diagnostics`; nil when the condition is malformed.
  ///
  /// With `itemProperties` (a step's `where:`), a bare name on the left of a comparison — or standing
  /// alone, or before `is empty` — is a property of the item tested: `kind == file` reads
  /// `${item.kind}`. The right-hand side is read as everywhere else (`file` is text).
  public static func parse(_ node: YAMLNode, into diagnostics: inout Diagnostics, itemProperties: Bool = false)
    -> Condition?
  {
    guard case .scalar(let scalar) = node else {
      diagnostics.append(
        Diagnostic(.error, .malformedCondition, "expected a condition, found \(node.kindName)", at: node.span))
      return nil
    }
    switch scalar.resolved {
    case .bool(let value): return .value(Operand(kind: .bool(value), span: scalar.span))
    case .int(let value): return .value(Operand(kind: .number(Double(value)), span: scalar.span))
    case .double(let value): return .value(Operand(kind: .number(value), span: scalar.span))
    case .null:
      diagnostics.append(Diagnostic(.error, .malformedCondition, "the condition is empty", at: scalar.span))
      return nil
    case .string:
      var parser = ConditionParser(scalar: scalar)
      parser.itemProperties = itemProperties
      do {
        let condition = try parser.parse(&diagnostics)
        return condition
      } catch {
        diagnostics.append(error.diagnostic)
        return nil
      }
    }
  }
}

/// A recursive-descent parser over the tokens of one condition.
private struct ConditionParser {
  struct Token {
    enum Kind: Equatable {
      case reference, quoted, word, symbol, open, close, end
    }

    var kind: Kind
    var text: String
    var start: Int
    var end: Int
  }

  struct Failure: Error {
    var diagnostic: Diagnostic
  }

  let locator: ScalarLocator
  let scalars: [Unicode.Scalar]
  var tokens: [Token] = []
  var position = 0
  /// Guards the recursion of `not` and parentheses against hostile input.
  var depth = 0
  var joins = 0
  /// Bare names on the left are properties of `${item}` (`where:`).
  var itemProperties = false

  init(scalar: YAMLNode.Scalar) {
    locator = ScalarLocator(scalar)
    scalars = Array(scalar.value.unicodeScalars)
  }

  mutating func parse(_ diagnostics: inout Diagnostics) throws(Failure) -> Condition {
    tokens = try tokenize()
    let condition = try parseOr(&diagnostics)
    guard tokens[position].kind == .end else {
      throw fail(tokens[position], "unexpected '\(tokens[position].text)' in the condition")
    }
    return condition
  }

  // MARK: Grammar

  private mutating func parseOr(_ diagnostics: inout Diagnostics) throws(Failure) -> Condition {
    var condition = try parseAnd(&diagnostics)
    while isWord("or") {
      try countJoin()
      position += 1
      condition = .or(condition, try parseAnd(&diagnostics))
    }
    return condition
  }

  private mutating func parseAnd(_ diagnostics: inout Diagnostics) throws(Failure) -> Condition {
    var condition = try parseNot(&diagnostics)
    while isWord("and") {
      try countJoin()
      position += 1
      condition = .and(condition, try parseNot(&diagnostics))
    }
    return condition
  }

  /// A chain of `and`s or `or`s parses into a tree as deep as the chain is long, which every later walk
  /// (checking, evaluating, freeing) recurses through: 100,000 of them in one 1 MiB scalar would overflow
  /// the stack as surely as 100,000 parentheses. No condition a person writes joins 256 tests.
  private mutating func countJoin() throws(Failure) {
    joins += 1
    guard joins <= Self.maximumJoins else {
      throw fail(tokens[position], "the condition joins more than \(Self.maximumJoins) tests with 'and' and 'or'")
        .help("split it into several steps with 'if'")
    }
  }

  static let maximumJoins = 256

  private mutating func parseNot(_ diagnostics: inout Diagnostics) throws(Failure) -> Condition {
    depth += 1
    defer { depth -= 1 }
    guard depth < 64 else { throw fail(tokens[position], "the condition nests too deeply") }
    if isWord("not") {
      position += 1
      return .not(try parseNot(&diagnostics))
    }
    if tokens[position].kind == .open {
      let open = tokens[position]
      position += 1
      let inner = try parseOr(&diagnostics)
      guard tokens[position].kind == .close else { throw fail(open, "'(' is not closed by ')'") }
      position += 1
      return inner
    }
    return try parseComparison(&diagnostics)
  }

  private mutating func parseComparison(_ diagnostics: inout Diagnostics) throws(Failure) -> Condition {
    let lhs = try parseOperand(&diagnostics, asProperty: itemProperties)
    let token = tokens[position]
    if isWord("is") {
      position += 1
      let negated = isWord("not")
      if negated { position += 1 }
      guard isWord("empty") else {
        throw fail(tokens[position], "expected 'empty' after 'is\(negated ? " not" : "")'").help(
          "write 'is empty' or 'is not empty'; compare values with '=='")
      }
      position += 1
      return .isEmpty(lhs, negated: negated)
    }
    guard token.kind == .symbol || token.kind == .word,
      let comparison = Condition.Comparison(rawValue: token.text)
    else {
      return .value(lhs)
    }
    position += 1
    let rhs = try parseOperand(&diagnostics)
    return .compare(lhs, comparison, rhs)
  }

  private mutating func parseOperand(_ diagnostics: inout Diagnostics, asProperty: Bool = false) throws(Failure)
    -> Operand
  {
    let token = tokens[position]
    let span = locator.span(token.start, token.end)
    if asProperty, token.kind == .word, !Self.keywords.contains(token.text),
      case .string = ScalarValue(plain: token.text), let property = Reference.parse(token.text, span: span)
    {
      position += 1
      let reference = Reference(root: "item", path: [.property(property.root)] + property.path, span: span)
      return Operand(kind: .template(Template(parts: [.reference(reference)], span: span)), span: span)
    }
    switch token.kind {
    case .reference:
      position += 1
      let template = Template.parse(token.text, locatedBy: locator.shifted(by: token.start), into: &diagnostics)
      return Operand(kind: .template(template), span: span)
    case .quoted:
      position += 1
      let inner = String(token.text.dropFirst().dropLast())
      let template = Template.parse(inner, locatedBy: locator.shifted(by: token.start + 1), into: &diagnostics)
      return Operand(kind: .template(template), span: span)
    case .word where !Self.keywords.contains(token.text):
      position += 1
      switch ScalarValue(plain: token.text) {
      case .bool(let value): return Operand(kind: .bool(value), span: span)
      case .int(let value): return Operand(kind: .number(Double(value)), span: span)
      case .double(let value): return Operand(kind: .number(value), span: span)
      case .null: return Operand(kind: .null, span: span)
      case .string(let text):
        return Operand(kind: .template(Template(parts: [.literal(text)], span: span)), span: span)
      }
    case .end:
      throw fail(token, "the condition ends where a value was expected")
    default:
      throw fail(token, "expected a value, found '\(token.text)'").help(
        "values are references like '${name}', quoted text, numbers, true or false")
    }
  }

  // MARK: Tokens

  static let keywords: Set<String> = [
    "and", "or", "not", "is", "empty", "contains", "starts-with", "ends-with", "matches",
  ]

  private func isWord(_ word: String) -> Bool {
    tokens[position].kind == .word && tokens[position].text == word
  }

  private func tokenize() throws(Failure) -> [Token] {
    var tokens: [Token] = []
    var index = 0
    func text(_ start: Int, _ end: Int) -> String { String(String.UnicodeScalarView(scalars[start..<end])) }
    while index < scalars.count {
      let scalar = scalars[index]
      let start = index
      switch scalar {
      case " ", "\t", "\n":
        index += 1
        continue
      case "(", ")":
        index += 1
        tokens.append(Token(kind: scalar == "(" ? .open : .close, text: String(scalar), start: start, end: index))
      case "$" where index + 1 < scalars.count && scalars[index + 1] == "{":
        guard let close = scalars[index...].firstIndex(of: "}") else {
          throw Failure(
            diagnostic: Diagnostic(
              .error, .malformedReference, "'${' is not closed by '}'", at: locator.span(start, start + 2)))
        }
        index = close + 1
        tokens.append(Token(kind: .reference, text: text(start, index), start: start, end: index))
      case "\"", "'":
        guard let close = scalars[(index + 1)...].firstIndex(of: scalar) else {
          throw Failure(
            diagnostic: Diagnostic(
              .error, .malformedCondition, "quoted text in the condition is not closed",
              at: locator.span(start, start + 1)))
        }
        index = close + 1
        tokens.append(Token(kind: .quoted, text: text(start, index), start: start, end: index))
      case "=", "!", "<", ">":
        index += 1
        if index < scalars.count, scalars[index] == "=" { index += 1 }
        let symbol = text(start, index)
        guard Condition.Comparison(rawValue: symbol) != nil else {
          throw Failure(
            diagnostic: Diagnostic(
              .error, .malformedCondition, "unknown operator '\(symbol)'", at: locator.span(start, index)
            )
            .help(symbol == "=" ? "compare with '=='" : "use '==', '!=', '<', '<=', '>' or '>='"))
        }
        tokens.append(Token(kind: .symbol, text: symbol, start: start, end: index))
      default:
        while index < scalars.count, !" \t\n()\"'=!<>".unicodeScalars.contains(scalars[index]) {
          if scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "{" { break }
          index += 1
        }
        tokens.append(Token(kind: .word, text: text(start, index), start: start, end: index))
      }
    }
    tokens.append(Token(kind: .end, text: "end of condition", start: scalars.count, end: scalars.count + 1))
    return tokens
  }

  private func fail(_ token: Token, _ message: String) -> Failure {
    Failure(diagnostic: Diagnostic(.error, .malformedCondition, message, at: locator.span(token.start, token.end)))
  }
}

extension ConditionParser.Failure {
  fileprivate func help(_ text: String) -> Self {
    Self(diagnostic: diagnostic.help(text))
  }
}
