import FlowDiagnostics
import FlowYAML
import Testing

@testable import FlowModel

private func condition(_ text: String) -> (Condition?, Diagnostics) {
  let document = YAMLDocument.load(SourceFile(path: "c.yml", text: "if: \(text)\n"))
  var diagnostics = Diagnostics()
  guard let node = document.root?.mapping?["if"]?.value else { return (nil, diagnostics) }
  return (Condition.parse(node, into: &diagnostics), diagnostics)
}

/// A compact rendering of a condition, to compare shapes.
private func shape(_ condition: Condition?) -> String {
  guard let condition else { return "nil" }
  func operand(_ operand: Operand) -> String {
    switch operand.kind {
    case .template(let template):
      template.wholeReference.map { "$\($0)" } ?? "'\(template.literal ?? "…")'"
    case .number(let value): "\(value)"
    case .bool(let value): "\(value)"
    case .null: "null"
    }
  }
  switch condition {
  case .value(let value): return operand(value)
  case .compare(let lhs, let op, let rhs): return "(\(operand(lhs)) \(op.rawValue) \(operand(rhs)))"
  case .isEmpty(let value, let negated): return "(\(operand(value)) is\(negated ? " not" : "") empty)"
  case .not(let inner): return "not \(shape(inner))"
  case .and(let lhs, let rhs): return "[\(shape(lhs)) and \(shape(rhs))]"
  case .or(let lhs, let rhs): return "[\(shape(lhs)) or \(shape(rhs))]"
  }
}

struct ConditionTests {
  @Test(arguments: [
    (
      "${bookmark.tags} contains \"inbox\" and not ${bookmark.favorite}",
      "[($bookmark.tags contains 'inbox') and not $bookmark.favorite]"
    ),
    ("${a} == 1 or ${b} != 'x' and ${c}", "[($a == 1.0) or [($b != 'x') and $c]]"),
    ("(${a} or ${b}) and ${c}", "[[$a or $b] and $c]"),
    ("${n} >= 10", "($n >= 10.0)"),
    ("${t} starts-with \"http\"", "($t starts-with 'http')"),
    ("${t} matches '^a.*z$'", "($t matches '^a.*z$')"),
    ("${list} is empty", "($list is empty)"),
    ("${list} is not empty", "($list is not empty)"),
    ("${x} == true", "($x == true)"),
    ("true", "true"),
    ("3", "3.0"),
  ])
  func grammar(text: String, expected: String) {
    let (parsed, diagnostics) = condition(text)
    #expect(diagnostics.isEmpty)
    #expect(shape(parsed) == expected)
  }

  @Test(arguments: [
    ("${a} = 1", "unknown operator '='", 10),
    ("${a} ==", "the condition ends where a value was expected", 12),
    ("(${a} and ${b}", "'(' is not closed by ')'", 5),
    ("${a} is full", "expected 'empty' after 'is'", 13),
    ("${a} contains \"x", "quoted text in the condition is not closed", 19),
    ("${a} ${b}", "unexpected '${b}' in the condition", 10),
  ])
  func malformedConditionsPointAtTheProblem(text: String, message: String, column: Int) throws {
    let (parsed, diagnostics) = condition(text)
    #expect(parsed == nil)
    let diagnostic = try #require(diagnostics.all.first)
    #expect(diagnostic.message == message)
    #expect(diagnostic.span?.start == at(1, column))
  }

  @Test func referencesAreCollected() {
    let (parsed, _) = condition("${a.b} > ${c[0]} or \"${d}-x\" == 'y'")
    #expect(parsed?.references.map(\.description) == ["a.b", "c[0]", "d"])
  }

  @Test func deepNotIsBounded() {
    let (parsed, diagnostics) = condition(String(repeating: "not ", count: 200) + "${a}")
    #expect(parsed == nil)
    #expect(diagnostics.all.first?.message == "the condition nests too deeply")
  }
}
