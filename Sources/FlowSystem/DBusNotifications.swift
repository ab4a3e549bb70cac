import FlowBasics
import FlowDiagnostics
import FlowIntents
import FoundationEssentials
import Synchronization

/// The freedesktop.org notification service (`org.freedesktop.Notifications`) on the session bus, reached
/// through flow's own D-Bus client (``DBusConnection``).
///
/// The environment comes from the caller (the CLI), so this module never reads the process's own.
public struct DBusNotifications: NotificationService {
  public static let service = "org.freedesktop.Notifications"
  static let path = "/org/freedesktop/Notifications"
  /// The name the notification server shows as the sender.
  static let appName = "flow"

  public let environment: [String: String]
  public let uid: UInt32

  public init(environment: [String: String], uid: UInt32) {
    self.environment = environment
    self.uid = uid
  }

  /// Why there is no session bus to reach, or nil when there may be one (an address is set, or the
  /// socket exists): what the unattended check reports before step 1.
  public func missingBus() -> String? {
    do {
      _ = try DBusAddress.session(environment: environment, uid: uid)
      return nil
    } catch {
      return Self.describe(error)
    }
  }

  public func show(_ request: NotificationRequest) async throws -> NotificationOutcome {
    let addresses: [DBusAddress]
    do {
      addresses = try DBusAddress.session(environment: environment, uid: uid)
    } catch {
      throw Self.failure(error)
    }
    let holder = ConnectionHolder()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<NotificationOutcome, DBusError>, Never>) in
        DetachedThread.run {
          continuation.resume(returning: Result { () throws(DBusError) in try Self.show(request, addresses, holder) })
        }
      }
    } onCancel: {
      holder.interrupt()
    }
    switch result {
    case .success(let outcome): return outcome
    case .failure(.cancelled): throw CancellationError()
    case .failure(let error): throw Self.failure(error)
    }
  }

  /// The blocking part, on its own thread.
  private static func show(_ request: NotificationRequest, _ addresses: [DBusAddress], _ holder: ConnectionHolder)
    throws(DBusError) -> NotificationOutcome
  {
    let bus = try DBusConnection.open(addresses)
    holder.set(bus)
    defer { holder.set(nil) }
    // Calls wait up to 25 s, libdbus's default: long enough for the bus to start the server (activation).
    let callDeadline = ContinuousClock.now + .seconds(25)
    func notifications(_ member: String, _ body: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
      try bus.call(
        .methodCall(destination: service, path: path, interface: service, member: member, body: body),
        until: callDeadline)
    }
    let capabilities: [String]
    if case .array(_, let items)? = try notifications("GetCapabilities").first {
      capabilities = items.compactMap(\.string)
    } else {
      capabilities = []
    }
    if !request.buttons.isEmpty {
      guard capabilities.contains("actions") else { throw .remote(name: "flow.NoActions", message: "") }
      // Subscribed before Notify, so that a button pressed at once is not missed.
      for member in ["ActionInvoked", "NotificationClosed"] {
        try bus.call(
          .methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "AddMatch",
            body: [.string("type='signal',interface='\(service)',member='\(member)',path='\(path)'")]),
          until: callDeadline)
      }
    }
    // Body markup is a small HTML subset where the server reads it: text is escaped to stay text. dunst
    // parses markup without announcing 'body-markup', but announces 'body-hyperlinks' (`<a href>`, markup too).
    let markup = capabilities.contains("body-markup") || capabilities.contains("body-hyperlinks")
    let (title, body) = Self.shown(request, markup: markup)
    // Buttons are keyed by their position, so that two equal labels stay apart and a key never needs escaping.
    let actions = request.buttons.enumerated().flatMap { [DBusValue.string("b\($0.offset)"), .string($0.element)] }
    let reply = try notifications(
      "Notify",
      [
        .string(appName), .uint32(0), .string(request.icon), .string(title), .string(body),
        .array(element: "s", actions),
        .array(element: "{sv}", [.dictEntry(.string("urgency"), .variant(.byte(request.urgency)))]),
        // With buttons the notification stays until answered or our timeout closes it; otherwise the
        // server's own default applies.
        .int32(request.buttons.isEmpty ? -1 : 0),
      ])
    guard let id = reply.first?.uint32 else { throw .protocolError("Notify answered without an id") }
    guard !request.buttons.isEmpty else { return .shown(id: id) }
    let deadline = ContinuousClock.now + request.timeout
    while true {
      let signal: DBusMessage
      do {
        signal = try bus.nextSignal(until: deadline)
      } catch .timedOut {
        _ = try? notifications("CloseNotification", [.uint32(id)])
        return .timedOut
      }
      guard signal.interface == service, signal.body.first?.uint32 == id else { continue }
      switch signal.member {
      case "ActionInvoked":
        guard case .string(let key)? = signal.body.dropFirst().first, key.hasPrefix("b"),
          let index = Int(key.dropFirst()), request.buttons.indices.contains(index)
        else { continue }
        // Some servers keep the notification after an action; it has been answered.
        _ = try? notifications("CloseNotification", [.uint32(id)])
        return .chosen(request.buttons[index])
      case "NotificationClosed":
        return .dismissed
      default:
        continue
      }
    }
  }

  /// The title and body as sent. The title (the spec's plain-text summary, which dunst and mako escape
  /// themselves) is one line, with control characters shown (`␛`) and bidirectional overrides neutralised
  /// as the terminal shows outside text (TerminalSafe), and at most ``titleLimit`` characters; the body
  /// keeps its lines, gets the same treatment, at most ``bodyLimit`` characters, and its markup escaped
  /// where the server reads markup.
  static func shown(_ request: NotificationRequest, markup: Bool) -> (title: String, body: String) {
    let title = bounded(TerminalSafe.text(request.title), titleLimit)
    let body = bounded(TerminalSafe.lines(request.body), bodyLimit)
    return (title, markup ? escapeMarkup(body) : body)
  }

  static let titleLimit = 200
  static let bodyLimit = 4000

  private static func bounded(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }

  static func escapeMarkup(_ text: String) -> String {
    text.replacingEvery("&", with: "&amp;").replacingEvery("<", with: "&lt;")
      .replacingEvery(">", with: "&gt;")
  }

  static let serviceHelp =
    "start a notification server (dunst, mako, or the desktop's own), or run the workflow in a desktop session"

  /// The error `notify` reports, naming what is missing.
  static func failure(_ error: DBusError) -> AppIntentError {
    switch error {
    case .noBus:
      return .failed(
        "cannot show a notification: no D-Bus session bus (\(describe(error)))",
        help:
          "notifications go to a desktop session: run it while this user is logged in (the session's bus is then found even from cron), or set DBUS_SESSION_BUS_ADDRESS to the session's bus"
      )
    case .remote(let name, _)
    where name == "org.freedesktop.DBus.Error.ServiceUnknown" || name.hasSuffix(".NameHasNoOwner"):
      return .failed(
        "cannot show a notification: no notification service (\(service)) on the session bus", help: serviceHelp)
    case .remote("flow.NoActions", _):
      return .failed(
        "cannot show buttons: the notification service on this session does not support them (no 'actions' capability)",
        help: "leave out 'buttons', or use a notification server that shows them (dunst, mako, the desktop's own)")
    default:
      return .failed("cannot show a notification: \(describe(error))")
    }
  }

  static func describe(_ error: DBusError) -> String {
    switch error {
    case .noBus(let why), .protocolError(let why), .io(let why): why
    case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
    case .timedOut: "the notification service did not answer within 25 seconds"
    case .cancelled: "cancelled"
    }
  }

  /// The connection in use, so that cancelling the task can interrupt the thread that waits on it.
  private final class ConnectionHolder: Sendable {
    private let state = Mutex<(connection: DBusConnection?, cancelled: Bool)>((nil, false))

    func set(_ connection: DBusConnection?) {
      let cancelled = state.withLock {
        $0.connection = connection
        return $0.cancelled
      }
      if cancelled { connection?.interrupt() }
    }

    func interrupt() {
      let connection = state.withLock {
        $0.cancelled = true
        return $0.connection
      }
      connection?.interrupt()
    }
  }
}
