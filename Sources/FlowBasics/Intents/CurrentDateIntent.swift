import FlowIntents
import FoundationEssentials

/// The date and time now, from the run's clock.
struct CurrentDateIntent: AppIntent {
  static let title: LocalizedStringResource = "Current Date"
  static let description = IntentDescription("Pass on the date and time now; 'format-date' writes it as text.")

  @Dependency var clock: any FlowClock

  static var parameterSummary: some ParameterSummary {
    Summary("Current date")
  }

  func perform() async throws -> some ReturnsValue<Date> {
    .result(value: clock.now)
  }
}
