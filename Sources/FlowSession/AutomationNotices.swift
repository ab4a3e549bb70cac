import FlowBasics
import FlowDiagnostics
import FlowModel
import FlowRuntime
import FlowSystem
import FoundationEssentials

/// What a run a trigger started says on the desktop, as Shortcuts' automations do (SPEC §10 `run:`):
/// `run: ask` asks with a notification before step 1, and `notify-when-run: true` says afterwards that it
/// ran. Only for a run nobody started at a terminal: a person running it by hand is asked nothing.
public struct AutomationNotices: Sendable {
  public let notifications: any NotificationService
  /// How long `run: ask` waits for a button before it does not run.
  public var timeout: Duration = .seconds(120)

  public init(notifications: any NotificationService) {
    self.notifications = notifications
  }

  public static let run = "Run"
  public static let dontRun = "Don't Run"

  /// Asks whether to run `workflow` for `event`; nil when it may run, else why it does not: the problem
  /// that ends the run, cancelled when the person said no (or nobody answered), needing input when
  /// nothing can ask.
  public func ask(_ workflow: Workflow, event: TriggerEvent) async -> RunError? {
    let request = NotificationRequest(
      title: "Run \u{201C}\(workflow.name)\u{201D}?", body: "\(event.kind.rawValue) \(event.summary)",
      icon: workflow.icon ?? "", buttons: [Self.run, Self.dontRun], timeout: timeout)
    let outcome: NotificationOutcome
    do {
      outcome = try await notifications.show(request)
    } catch {
      return RunError(
        .needsInput,
        Diagnostic(
          .error, .inputNeeded, "'run: ask' could not ask before this triggered run: \(error)", file: workflow.file.path
        ).help("it asks with a notification that has buttons; without a notification server, write 'run: immediately'"))
    }
    let answer: String =
      switch outcome {
      case .chosen(Self.run), .shown: ""
      case .chosen(let other): "'\(other)' was chosen"
      case .dismissed: "the notification was dismissed"
      case .timedOut: "nobody answered within \(DurationParsing.format(timeout))"
      }
    guard !answer.isEmpty else { return nil }
    return RunError(
      .cancelled,
      Diagnostic(.error, .cancelled, "not run: \(answer) when asked whether to run", file: workflow.file.path))
  }

  /// Says that the workflow `name` did not run, on the desktop: a scheduled or triggered run whose file
  /// no longer reads as a workflow, or whose `on-failure:` is wrong itself, has no `on-failure:` to tell
  /// the person. The first error's line, and where the rest is. Left out when it cannot be shown.
  public func notRun(_ name: String, icon: String?, diagnostics: Diagnostics, runID: String) async {
    let lead = diagnostics.all.first { $0.severity == .error } ?? diagnostics.all.first
    let line = lead.map { DiagnosticRenderer().render($0).prefix { $0 != "\n" } }.map(String.init) ?? "it is not valid"
    let request = NotificationRequest(
      title: "\u{201C}\(name)\u{201D} did not run", body: "\(line)\n(flow runs show \(runID.prefix(8)))",
      urgency: 2, icon: icon ?? "")
    _ = try? await notifications.show(request)
  }

  /// Says that `workflow` ran for `event`, and how it ended. A notification that cannot be shown is not
  /// the run's failure: it is left out.
  public func ran(_ workflow: Workflow, event: TriggerEvent, status: ExitStatus, runID: String) async {
    let ended = status == .success ? "ran" : "\(status.meaning) (flow runs show \(runID.prefix(8)))"
    let request = NotificationRequest(
      title: "\u{201C}\(workflow.name)\u{201D} \(status == .success ? "ran" : "did not finish")",
      body: "\(event.kind.rawValue) \(event.summary): \(ended)", icon: workflow.icon ?? "")
    _ = try? await notifications.show(request)
  }
}
