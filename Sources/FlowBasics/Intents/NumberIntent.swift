import FlowIntents

/// Makes a number from a literal or from text.
struct NumberIntent: AppIntent {
  static let title: LocalizedStringResource = "Number"
  static let description = IntentDescription("Pass on a number; text such as '42' or '1.5' is read as one.")

  @Parameter(title: "Number", primary: true)
  var number: Double

  static var parameterSummary: some ParameterSummary {
    Summary("Number \(\.$number)")
  }

  func perform() async throws -> some ReturnsValue<Double> {
    .result(value: number)
  }
}
