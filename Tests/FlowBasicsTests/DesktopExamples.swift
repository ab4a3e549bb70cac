import FlowBasics
import FlowIntents
import Foundation

/// Stand-ins for the desktop in the catalogue's examples, which run every action without a desktop;
/// DesktopServiceTests runs the real services (dunst on a private bus, xclip under Xvfb).
final class StandInNotifications: NotificationService, @unchecked Sendable {
  private let lock = NSLock()
  private var requests: [NotificationRequest] = []
  var shown: [NotificationRequest] { lock.withLock { requests } }

  /// Presses the last button, if any.
  func show(_ request: NotificationRequest) async throws -> NotificationOutcome {
    lock.withLock { requests.append(request) }
    return request.buttons.last.map(NotificationOutcome.chosen) ?? .shown(id: 1)
  }
}

final class StandInClipboard: ClipboardService, @unchecked Sendable {
  private let lock = NSLock()
  private var content = "copied text"
  func text() async throws -> String { lock.withLock { content } }
  func copy(_ text: String) async throws { lock.withLock { content = text } }
}

extension IntentContext {
  func withDesktopStandIns() -> IntentContext {
    with(StandInNotifications() as any NotificationService, as: (any NotificationService).self)
      .with(StandInClipboard() as any ClipboardService, as: (any ClipboardService).self)
      .with(WorkflowEnvironment(allowed: ["HOME", "EDITOR"], values: ["HOME": "/home/ada"]))
  }
}

let desktopExamples: [BasicsExample] = [
  .init("notify", ["title": "Digest ready", "body": "3 new favourites"], .value(.nothing)),
  .init("notify", ["title": "Later?", "buttons": ["Snooze", "Dismiss"]], .value("Dismiss")),
  .init(
    "notify", ["title": "Done", "urgency": "urgent"],
    .error("expected one of 'low', 'normal' or 'critical' for 'urgency', got 'urgent'")),
  .init(
    "notify", ["title": "Later?", "buttons": ["Snooze"], "timeout": "2d"],
    .error("cannot wait 2d for a button: the timeout is from 1s to 1d")),

  .init("get-clipboard", [:], .value("copied text")),
  .init("get-clipboard", ["text": 1], .error("'get-clipboard' has no parameter 'text'")),
  .init("copy-to-clipboard", ["content": ["a", "b"]], .value(.nothing)),
  .init("copy-to-clipboard", [:], .error("'content' needs a value: Content")),

  .init("get-env", ["name": "HOME"], .value("/home/ada")),
  .init("get-env", ["name": "EDITOR", "default": "vi"], .value("vi")),
  .init(
    "get-env", ["name": "EDITOR"],
    .error(
      "environment variable 'EDITOR' is not set",
      help:
        "set it before the run (export EDITOR=…; cron and systemd pass only a few variables), or give 'get-env' a 'default'"
    )),
  .init(
    "get-env", ["name": "PATH"],
    .error(
      "'PATH' is not listed under 'env:'",
      help: "a workflow reads only the environment variables it lists: add 'env: [PATH]'")),

  .init(
    "device-details", [:],
    .satisfies { value in
      guard case .entity(let device) = value else { return false }
      return device.typeName == "Device" && device.properties["kernel"].map { !$0.text.isEmpty } == true
    }),
  .init("device-details", ["detail": "kernel"], .error("'device-details' has no parameter 'detail'")),

  // Seed 7: the same draws every run.
  .init("random-item", ["list": ["a", "b", "c", "d"]], .value("d")),
  .init("random-item", ["list": ["a", "b", "c", "d"], "count": 3], .value(["d", "b", "c"])),
  .init("random-item", ["list": ["a", "b"], "count": 5], .value(["b", "a"])),
  .init("random-item", ["list": []], .error("cannot draw an item from an empty list")),
  .init("random-item", ["list": ["a"], "count": 0], .error("'count' must be between 1 and 1000000, got 0")),
]
