import FlowIntents

/// Works out an arithmetic expression.
struct CalculateIntent: AppIntent {
  static let title: LocalizedStringResource = "Calculate"
  static let description = IntentDescription(
    "Work out arithmetic such as '${count} * 2 + 1', with + - * / % ^, parentheses and round, floor, ceil, abs, sqrt, min, max."
  )

  @Parameter(title: "Expression", primary: true)
  var expression: String

  static var parameterSummary: some ParameterSummary {
    Summary("Calculate \(\.$expression)")
  }

  func perform() async throws -> some ReturnsValue<Double> {
    .result(value: try Arithmetic.evaluate(expression))
  }
}
