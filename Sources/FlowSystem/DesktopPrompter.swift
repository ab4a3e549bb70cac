import FlowBasics
import FlowDiagnostics
import FlowIntents
import FoundationEssentials

/// Asks in desktop dialogs (SPEC §11): a run with no terminal but a desktop session — started by a
/// trigger, a hotkey, the launcher — asks every question of SPEC §5 in a dialog of ``DesktopDialogs``.
/// As at a terminal, it returns what the person typed; the framework converts it and asks again with
/// ``ValueRequest/problem`` set, which the dialog shows above the question. Cancel cancels the run.
///
/// Without a dialog tool, a notification with buttons still answers a small choice or a confirmation;
/// anything else fails as unanswered, naming the package to install.
public struct DesktopPrompter: Prompter {
  public let dialogs: DesktopDialogs?
  /// The session's notification server, for choices when no dialog tool is installed.
  public let notifications: (any NotificationService)?
  /// What to install for dialogs here (``DesktopDialogs/installHelp(desktop:)``).
  public let installHelp: String

  public init(dialogs: DesktopDialogs?, notifications: (any NotificationService)?, installHelp: String) {
    self.dialogs = dialogs
    self.notifications = notifications
    self.installHelp = installHelp
  }

  /// The most options a notification's buttons offer; a longer list needs a dialog.
  public static let buttonLimit = 3

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    guard let dialogs else {
      var error = AppIntentError.needsValue(request.origin, dialog: request.dialog)
      error.help = installHelp
      throw error
    }
    let text = Self.problemLine(request.problem) + request.dialog + Self.hint(for: request)
    if request.valueType == .boolean {
      switch try await dialogs.ask(.list(text: text, options: ["Yes", "No"], multiple: false)) {
      case .chosen(let chosen): return .text(chosen.first == 0 ? "yes" : "no")
      default: throw AppIntentError.userCancelled
      }
    }
    let initial = request.masked ? nil : request.defaultAnswer?.text
    if request.multiline {
      switch try await dialogs.ask(.text(text: text, initial: initial)) {
      case .text(let answer): return .text(answer)
      default: throw AppIntentError.userCancelled
      }
    }
    switch try await dialogs.ask(.entry(text: text, initial: initial, hidden: request.masked)) {
    case .text(let answer): return .text(answer)
    default: throw AppIntentError.userCancelled
    }
  }

  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    if let dialogs {
      switch try await dialogs.ask(
        .list(text: request.dialog, options: request.options, multiple: request.allowsMultiple))
      {
      case .chosen(let chosen): return chosen
      default: throw AppIntentError.userCancelled
      }
    }
    guard let notifications, !request.allowsMultiple, request.options.count <= Self.buttonLimit else {
      var error = AppIntentError.needsChoice(request.origin, dialog: request.dialog, options: request.options)
      error.help =
        installHelp
        + (request.allowsMultiple || request.options.count > Self.buttonLimit
          ? " (a notification's buttons offer one of at most \(Self.buttonLimit) options)" : "")
      throw error
    }
    let outcome = try await notifications.show(
      NotificationRequest(title: request.dialog, buttons: request.options, timeout: Self.buttonTimeout))
    guard case .chosen(let label) = outcome, let index = request.options.firstIndex(of: label) else {
      throw AppIntentError.userCancelled
    }
    return [index]
  }

  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    let text = request.dialog + Self.consequences(of: request)
    if let dialogs {
      return try await dialogs.ask(.question(text: text, warning: request.isDestructive)) == .yes
    }
    guard let notifications else {
      var error = AppIntentError.confirmationRequired(request.origin, dialog: request.dialog)
      error.help = installHelp
      throw error
    }
    let buttons = ["Cancel", request.isDestructive ? "Continue" : "OK"]
    let outcome = try await notifications.show(
      NotificationRequest(
        title: request.dialog, body: Self.consequences(of: request).trimmingScalars(where: PlainText.isNewline),
        urgency: request.isDestructive ? 2 : 1, icon: request.isDestructive ? "dialog-warning" : "dialog-question",
        buttons: buttons, timeout: Self.buttonTimeout))
    return outcome == .chosen(buttons[1])
  }

  /// How long a notification's buttons wait, as a dialog does.
  static let buttonTimeout: Duration = .seconds(15 * 60)

  /// Why the previous answer was refused, above the question asked again.
  static func problemLine(_ problem: String?) -> String {
    problem.map { "\($0)\n\n" } ?? ""
  }

  /// What kind of answer fits, after the question: the type, a number's range, the words a date may be
  /// written in (as `ask` reads them at a terminal).
  static func hint(for request: ValueRequest) -> String {
    if let range = request.range {
      let low = FlowValue.formatNumber(range.lowerBound), high = FlowValue.formatNumber(range.upperBound)
      return "\n(\(request.valueType == .integer ? "a whole number" : "a number") from \(low) to \(high))"
    }
    switch request.valueType {
    case .number: return "\n(a number)"
    case .integer: return "\n(a whole number)"
    case .url: return "\n(a URL: https://…)"
    case .date: return "\n(a date: 2026-12-01 09:00, today, tomorrow, next monday, in 3 days)"
    default: return ""
    }
  }

  /// Under a destructive question, that it cannot be undone and what it does, in the card's words.
  static func consequences(of request: ConfirmationRequest) -> String {
    guard request.isDestructive else { return "" }
    var words: [String] = []
    for kind in request.access where kind.isAlarming && !words.contains(kind.words.card) {
      words.append(kind.words.card)
    }
    return words.isEmpty ? "\n\nThis cannot be undone." : "\n\nThis cannot be undone: it \(List.and(words))."
  }
}
