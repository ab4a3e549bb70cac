import FlowIntents
import FlowModel

/// Pauses the workflow for a while.
struct WaitIntent: AppIntent {
  static let title: LocalizedStringResource = "Wait"
  static let description = IntentDescription(
    "Pause the workflow for a duration such as '30s', '2m' or '1h30m' (at most a day).")

  @Parameter(title: "Duration", primary: true)
  var duration: Duration

  @Dependency var clock: any FlowClock

  static var parameterSummary: some ParameterSummary {
    Summary("Wait \(\.$duration)")
  }

  func perform() async throws -> some IntentResult {
    // A day bounds a typo such as '30h' for '30s'; longer pauses belong to a schedule.
    guard duration <= .seconds(86_400) else {
      throw AppIntentError.failed(
        "cannot wait \(DurationParsing.format(duration)): the longest wait is 1d",
        help: "use 'schedule:' for something that should happen much later")
    }
    try await clock.sleep(for: duration)
    return .result()
  }
}
