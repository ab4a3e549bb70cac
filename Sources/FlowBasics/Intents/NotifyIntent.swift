import FlowIntents
import FlowModel

/// Shows a desktop notification, and with buttons waits for one: Shortcuts' "Show Notification".
struct NotifyIntent: AppIntent {
  static let title: LocalizedStringResource = "Show Notification"
  static let description = IntentDescription(
    "Show a desktop notification through the session's notification service (D-Bus); with buttons, wait for one to be pressed and output its label, or nothing when the notification is dismissed or the timeout passes."
  )
  // It changes nothing stored, but a dry run should not pop up notifications (nor wait for an answer).
  static let sideEffect = SideEffect.changes
  static let machineAccess = [MachineAccess(.showsNotifications)]

  @Parameter(title: "Title", primary: true)
  var title: String

  @Parameter(title: "Body")
  var body: String?

  @Parameter(title: "Urgency", default: .normal)
  var urgency: NotificationUrgency

  @Parameter(title: "Icon", description: "an icon name of the theme, such as 'dialog-information', or a file path")
  var icon: String?

  @Parameter(title: "Buttons", description: "labels of buttons to wait for; the pressed one is the output")
  var buttons: [String]?

  @Parameter(
    title: "Timeout", description: "how long to wait for a button (with buttons only)", default: .seconds(60))
  var timeout: Duration

  @Dependency var notifications: any NotificationService

  static var parameterSummary: some ParameterSummary {
    Summary("Show notification \(\.$title)") {
      \.$body
      \.$urgency
      \.$icon
      \.$buttons
      \.$timeout
    }
  }

  /// The pressed button's label (or nothing) where the step gives buttons. Without them the output is
  /// nothing, as Shortcuts' action has none; but a step whose buttons' type the checker does not know
  /// looks the same from here, so the declared "any value" stays.
  static func outputType(given parameters: [String: ValueType]) -> ValueType? {
    parameters["buttons"] == nil ? nil : .text
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    guard timeout > .zero, timeout <= .seconds(86_400) else {
      throw AppIntentError.failed(
        "cannot wait \(DurationParsing.format(timeout)) for a button: the timeout is from 1s to 1d",
        help: "give 'timeout' a duration such as '30s' or '10m'")
    }
    let labels = (buttons ?? []).filter { !$0.isEmpty }
    let outcome = try await notifications.show(
      NotificationRequest(
        title: title, body: body ?? "", urgency: urgency.level, icon: icon ?? "", buttons: labels, timeout: timeout))
    if case .chosen(let label) = outcome { return .result(value: .text(label)) }
    return .result(value: .nothing)
  }
}
