import FlowIntents
import FoundationEssentials

/// A desktop notification to show (the Desktop Notifications Specification's `Notify`).
public struct NotificationRequest: Sendable, Hashable {
  public var title: String
  public var body: String
  /// 0 low, 1 normal, 2 critical: the specification's `urgency` hint.
  public var urgency: UInt8
  /// An icon name from the theme (`dialog-information`) or a file path; empty for none.
  public var icon: String
  /// Button labels; with any, ``NotificationService/show(_:)`` waits for one to be chosen.
  public var buttons: [String]
  /// How long to wait for a button.
  public var timeout: Duration

  public init(
    title: String, body: String = "", urgency: UInt8 = 1, icon: String = "", buttons: [String] = [],
    timeout: Duration = .seconds(60)
  ) {
    self.title = title
    self.body = body
    self.urgency = urgency
    self.icon = icon
    self.buttons = buttons
    self.timeout = timeout
  }
}

/// What became of a notification.
public enum NotificationOutcome: Sendable, Hashable {
  /// Shown, with no buttons to wait for; the server's id.
  case shown(id: UInt32)
  /// The person pressed this button (its label).
  case chosen(String)
  /// Dismissed, or closed by the server, before a button was pressed.
  case dismissed
  /// No button within the timeout; the notification was closed.
  case timedOut
}

/// Shows desktop notifications; `notify` uses it.
public protocol NotificationService: Sendable {
  func show(_ request: NotificationRequest) async throws -> NotificationOutcome
}
