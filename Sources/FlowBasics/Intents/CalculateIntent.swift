import FlowIntents

/// Works out an arithmetic expression.
struct CalculateIntent: AppIntent {
  static let title: LocalizedStringResource = "Calculate"
  static let description = IntentDescription(
    "Work out arithmetic such as '${count} * 2 + 1', with + - * / % ^, parentheses and round, floor, ceil, abs, sqrt, min, max."
  )

  @Parameter(title: "Expression", primary: true)
  var expression: ArithmeticExpression

  static var parameterSummary: some ParameterSummary {
    Summary("Calculate \(\.$expression)")
  }

  func perform() async throws -> some ReturnsValue<Double> {
    .result(value: try Arithmetic.evaluate(expression.text))
  }
}

/// `calculate`'s expression: text, whose nesting is checked when it is converted, so that `flow validate`
/// refuses a literal expression too deep to evaluate (the checker converts literals with this type's own
/// initialiser) rather than saying "valid" about a step that would fail.
struct ArithmeticExpression: IntentValueConvertible, Hashable {
  let text: String

  static var valueType: ValueType { .text }

  init(flowValue: FlowValue) throws(CoercionError) {
    text = try String(flowValue: flowValue)
    try Arithmetic.checkNesting(text)
  }

  var flowValue: FlowValue { .text(text) }
}
