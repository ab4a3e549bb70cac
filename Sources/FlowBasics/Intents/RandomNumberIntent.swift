import FlowIntents

/// A whole number chosen at random between two bounds, both included.
struct RandomNumberIntent: AppIntent {
  static let title: LocalizedStringResource = "Random Number"
  static let description = IntentDescription(
    "A whole number chosen at random from a minimum to a maximum, both included.")

  @Parameter(title: "Minimum", default: 1)
  var minimum: Int

  @Parameter(title: "Maximum", default: 100, primary: true)
  var maximum: Int

  @Dependency var random: any RandomSource

  static var parameterSummary: some ParameterSummary {
    Summary("Random number between \(\.$minimum) and \(\.$maximum)")
  }

  func perform() async throws -> some ReturnsValue<Int> {
    guard minimum <= maximum else {
      throw AppIntentError.failed(
        "the minimum \(minimum) is above the maximum \(maximum)",
        help: "swap them, or make the maximum at least \(minimum)")
    }
    // The span as a UInt avoids overflow at Int.min...Int.max; RandomSource draws below an Int, so it is capped.
    let span = Int(clamping: UInt(bitPattern: maximum &- minimum) &+ 1)
    return .result(value: minimum &+ random.index(below: max(span, 1)))
  }
}
