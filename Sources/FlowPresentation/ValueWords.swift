import FlowDiagnostics
import FlowIntents
import FlowModel

/// Values and conditions as they read inside a step's sentence: literals as written (free text in
/// quotes), magic variables as chips, enum cases by their display names, and every coercion the value
/// goes through made visible (`⟨saved⟩ as URL`).
///
/// The types come from the checker (``FlowRuntime/Checker/referenceTypes(in:)``); nothing here infers one.
struct ValueWords {
  /// The static type of each reference, as the checker found it.
  let referenceTypes: [Reference: ValueType]

  /// A value given for a parameter (or anything else) that wants `wanted`.
  func words(_ value: Value, wanted: ValueType, quoted: Bool? = nil) -> StyledText {
    switch value {
    case .null: return StyledText([.init(.placeholder, "nothing")])
    case .ask: return StyledText([.init(.ask, "Ask Each Time")])
    case .bool(let bool, _):
      return StyledText([.init(.value, wanted == .boolean ? (bool ? "on" : "off") : (bool ? "true" : "false"))])
    case .integer(let int, _): return StyledText([.init(.value, String(int))])
    case .double(let double, _): return StyledText([.init(.value, FlowValue.formatNumber(double))])
    case .text(let template):
      return words(template, wanted: wanted, quoted: quoted ?? Self.isFreeText(wanted))
    case .list(let items, _):
      guard !items.isEmpty else { return StyledText([.init(.value, "no items")]) }
      let element = wanted.isList ? wanted.elementType : .any
      return StyledText.join(items.map { words($0, wanted: element, quoted: false) }, separator: ", ")
    case .dictionary(let entries, _):
      var text: StyledText = "{"
      text.append(
        StyledText.join(
          entries.map {
            StyledText([.init(.value, $0.key.value + ": ")]) + words($0.value, wanted: .any, quoted: false)
          },
          separator: ", "))
      text.append(.text, "}")
      return text
    }
  }

  /// Text with references: a whole reference is a chip with its coercion; text around references is
  /// quoted when it is free text.
  func words(_ template: Template, wanted: ValueType, quoted: Bool) -> StyledText {
    if let reference = template.wholeReference {
      return chip(reference, coercedTo: wanted)
    }
    if let literal = template.literal {
      if case .enumeration(let type) = wanted.elementType, let match = type.match(literal) {
        return StyledText([.init(.value, match.title)])
      }
      let text = StyledText([.init(.value, Self.oneLine(literal))])
      return quoted && (wanted != .any || Self.quotes(literal, for: wanted)) ? "“" + text + "”" : text
    }
    var text = StyledText()
    if quoted { text.append(.text, "“") }
    for part in template.parts {
      switch part {
      case .literal(let literal): text.append(.value, Self.oneLine(literal))
      case .reference(let reference): text.append(chip(reference, coercedTo: .text))
      }
    }
    if quoted { text.append(.text, "”") }
    return text
  }

  /// `⟨saved⟩`, followed by ` as URL` when the value changes type on the way in.
  func chip(_ reference: Reference, coercedTo wanted: ValueType) -> StyledText {
    var text = StyledText([.init(.variable, "⟨\(reference)⟩")])
    if let actual = referenceTypes[reference], let target = Self.coercion(from: actual, to: wanted) {
      text.append(.coercion, " as \(target.name)")
    }
    return text
  }

  /// The type a value of `actual` is converted to where `wanted` is wanted, or nil when it passes as it
  /// is. Inside text only what does not read as itself is marked (an entity becomes its title, a list
  /// its items joined); a number in text is still the number.
  static func coercion(from actual: ValueType, to wanted: ValueType) -> ValueType? {
    if actual == wanted || actual == .any || actual == .nothing { return nil }
    switch wanted {
    case .any: return nil
    case .text:
      switch actual {
      case .entity, .list, .dictionary: return .text
      default: return nil
      }
    case .number:
      return actual == .integer ? nil : wanted
    case .list(let element):
      if case .list(let actualElement) = actual {
        return element == .any || actualElement == .any || coercion(from: actualElement, to: element) == nil
          ? nil : wanted
      }
      return wanted
    default:
      return wanted
    }
  }

  /// Whether a parameter takes words a person wrote (shown in quotes) rather than a name or a value.
  static func isFreeText(_ type: ValueType) -> Bool {
    type == .text || type == .any
  }

  /// Whether a literal for a parameter of `type` is shown in quotes: always for text; for a value of any
  /// type only when it reads as words (`Show “It is late”`, but `Show Done`, `max results all`).
  static func quotes(_ literal: String, for type: ValueType) -> Bool {
    type == .text || (type == .any && (literal.isEmpty || literal.contains(where: \.isWhitespace)))
  }

  /// A line break shows as `↵`, so that a sentence stays one paragraph.
  static func oneLine(_ text: String) -> String {
    text.replacingEvery("\r\n", with: "↵").replacingEvery("\n", with: "↵")
  }

  // MARK: - Conditions

  /// A condition in words: `⟨found⟩ is empty`, `⟨previous⟩ does not contain “Reading List”`.
  func words(_ condition: Condition) -> StyledText {
    switch condition {
    case .value(let operand):
      return words(operand)
    case .compare(let lhs, let comparison, let rhs):
      return words(lhs) + " " + StyledText(stringLiteral: Self.phrase(comparison, negated: false)) + " " + words(rhs)
    case .isEmpty(let operand, let negated):
      return words(operand) + (negated ? " is not empty" : " is empty")
    case .not(let inner):
      switch inner {
      case .compare(let lhs, let comparison, let rhs):
        return words(lhs) + " " + StyledText(stringLiteral: Self.phrase(comparison, negated: true)) + " "
          + words(rhs)
      case .isEmpty(let operand, let negated):
        return words(operand) + (negated ? " is empty" : " is not empty")
      case .value:
        return "not " + words(inner)
      case .not, .and, .or:
        return "not (" + words(inner) + ")"
      }
    case .and(let lhs, let rhs):
      return grouped(lhs, inside: condition) + " and " + grouped(rhs, inside: condition)
    case .or(let lhs, let rhs):
      return words(lhs) + " or " + words(rhs)
    }
  }

  /// Parentheses where `or` sits inside `and`, so the words keep the grammar's meaning.
  private func grouped(_ condition: Condition, inside parent: Condition) -> StyledText {
    if case .or = condition { return "(" + words(condition) + ")" }
    return words(condition)
  }

  private func words(_ operand: Operand) -> StyledText {
    switch operand.kind {
    case .template(let template):
      // A reference compares as what it is; anything else is text, written in quotes as in the file.
      template.wholeReference.map { chip($0, coercedTo: .any) } ?? words(template, wanted: .text, quoted: true)
    case .number(let number): StyledText([.init(.value, FlowValue.formatNumber(number))])
    case .bool(let bool): StyledText([.init(.value, bool ? "true" : "false")])
    case .null: StyledText([.init(.value, "nothing")])
    }
  }

  static func phrase(_ comparison: Condition.Comparison, negated: Bool) -> String {
    switch (comparison, negated) {
    case (.equal, false), (.notEqual, true): "is"
    case (.notEqual, false), (.equal, true): "is not"
    case (.less, false): "is less than"
    case (.less, true): "is at least"
    case (.lessOrEqual, false): "is at most"
    case (.lessOrEqual, true): "is more than"
    case (.greater, false): "is greater than"
    case (.greater, true): "is at most"
    case (.greaterOrEqual, false): "is at least"
    case (.greaterOrEqual, true): "is less than"
    case (.contains, false): "contains"
    case (.contains, true): "does not contain"
    case (.startsWith, false): "starts with"
    case (.startsWith, true): "does not start with"
    case (.endsWith, false): "ends with"
    case (.endsWith, true): "does not end with"
    case (.matches, false): "matches"
    case (.matches, true): "does not match"
    }
  }
}
