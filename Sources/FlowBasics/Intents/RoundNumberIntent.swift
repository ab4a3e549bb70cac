import FlowIntents

/// Rounds a number to a number of decimal places.
struct RoundNumberIntent: AppIntent {
  static let title: LocalizedStringResource = "Round Number"
  static let description = IntentDescription(
    "Round a number to whole numbers or to decimal places: to the nearest (halves away from zero), always up, or always down."
  )

  @Parameter(title: "Number", primary: true)
  var number: Double

  @Parameter(title: "Decimal Places", default: 0, inclusiveRange: (0, 15))
  var decimalPlaces: Int

  @Parameter(title: "Mode", default: .nearest)
  var mode: RoundingMode

  static var parameterSummary: some ParameterSummary {
    Summary("Round \(\.$number) to \(\.$decimalPlaces) decimal places") {
      \.$mode
    }
  }

  func perform() async throws -> some ReturnsValue<Double> {
    guard number.isFinite else { return .result(value: number) }
    let decimalMode: DecimalRounding.Mode =
      switch mode {
      case .up: .up
      case .down: .down
      case .nearest: .plain
      }
    // The nearest Double to the rounded decimal: 1.005 to 3 places is 1.005.
    let rounded = DecimalRounding(number, places: decimalPlaces, mode: decimalMode)
    return .result(value: Double(rounded.text) ?? number)
  }
}
