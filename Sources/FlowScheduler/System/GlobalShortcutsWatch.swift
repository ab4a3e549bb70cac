import FlowDiagnostics
import FlowSystem
import FoundationEssentials

/// Global shortcuts through the desktop portal (`org.freedesktop.portal.GlobalShortcuts`, session bus):
/// pressing one is ``MachineEvent/hotkey(id:)``.
///
/// Arming, in order: `org.freedesktop.host.portal.Registry.Register(app id, {})`, which portals from 1.21
/// require of an application that is not sandboxed (older ones lack it, which is fine); the interface's
/// `version`, whose absence means the desktop has no such portal; `CreateSession`, then `BindShortcuts`.
/// Both answer through a request object's `Response` signal (the portal's Request pattern): its path is
/// known before the call (`…/request/SENDER/TOKEN`), and the signal is subscribed to before it, so that a
/// fast answer is not missed; a portal that names another path in its reply is followed there.
final class GlobalShortcutsWatch: BusServiceWatch {
  static let path = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.GlobalShortcuts"
  static let registry = "org.freedesktop.host.portal.Registry"
  static let request = "org.freedesktop.portal.Request"
  static let requests = "/org/freedesktop/portal/desktop/request"
  static let sessionInterface = "org.freedesktop.portal.Session"
  static let missing = "no GlobalShortcuts portal on this desktop; use a launcher entry or 'flow do'"

  private let appID: String?
  private let shortcuts: [HotkeyShortcut]
  /// The session the shortcuts are bound in.
  private var session: String?
  /// Requests waiting for their `Response`, by request path.
  private var waiting: [String: (UInt32, [String: DBusValue]) -> Void] = [:]
  private var tokens = 0

  init(
    appID: String?, shortcuts: [HotkeyShortcut], emit: @escaping (MachineEvent) -> Void,
    report: @escaping (MachineSourceReport) -> Void
  ) {
    self.appID = appID
    self.shortcuts = shortcuts
    super.init(source: .hotkeys, emit: emit, report: report)
  }

  override var rules: [DBusMatchRule] {
    [
      DBusMatchRule(sender: service, interface: Self.request, member: "Response", pathNamespace: Self.requests),
      DBusMatchRule(sender: service, interface: Self.interface, member: "Activated", path: Self.path),
      DBusMatchRule(sender: service, interface: Self.sessionInterface, member: "Closed"),
    ]
  }

  override func arm(_ ready: @escaping (String?) -> Void) {
    register { [weak self] in
      guard let self else { return }
      self.property(Self.path, Self.interface, "version") { [weak self] result in
        guard let self else { return }
        guard case .success = result else { return self.fail(Self.missing) }
        self.createSession { [weak self] session in
          guard let self else { return }
          self.session = session
          self.bind(in: session) { ready(nil) }
        }
      }
    }
  }

  override func disarm() {
    session = nil
    waiting = [:]
  }

  override func handle(_ signal: DBusMessage) {
    switch (signal.interface, signal.member) {
    case (Self.request, "Response"):
      guard let path = signal.path, let answer = waiting.removeValue(forKey: path),
        let code = signal.body.first?.uint32
      else { return }
      answer(code, signal.body.dropFirst().first?.dictionary ?? [:])
    case (Self.interface, "Activated"):
      guard signal.body.count >= 2, signal.body[0].string == session, let id = signal.body[1].string else { return }
      emit(.hotkey(id: id))
    case (Self.sessionInterface, "Closed"):
      guard signal.path == session else { return }
      session = nil
      fail("the desktop closed flow's shortcuts session")
    default:
      break
    }
  }

  /// Registers the app id, where the portal has the registry; any answer goes on.
  private func register(_ then: @escaping () -> Void) {
    guard let appID else { return then() }
    call(Self.path, Self.registry, "Register", [.string(appID), .array(element: "{sv}", [])]) { _ in then() }
  }

  private func createSession(_ then: @escaping (String) -> Void) {
    let token = nextToken()
    request(
      "CreateSession",
      [
        .array(
          element: "{sv}", [option("handle_token", .string(token)), option("session_handle_token", .string(token))])
      ],
      token: token
    ) { [weak self] code, results in
      guard let self else { return }
      guard code == 0, let session = results["session_handle"]?.string else {
        return self.fail("the desktop portal refused a shortcuts session (\(Self.describe(code)))")
      }
      then(session)
    }
  }

  private func bind(in session: String, _ then: @escaping () -> Void) {
    let token = nextToken()
    let list: [DBusValue] = shortcuts.map { shortcut in
      var options = [option("description", .string(shortcut.description))]
      if let trigger = shortcut.trigger { options.append(option("preferred_trigger", .string(trigger))) }
      return .struct([.string(shortcut.id), .array(element: "{sv}", options)])
    }
    request(
      "BindShortcuts",
      [
        .objectPath(session), .array(element: "(sa{sv})", list), .string(""),
        .array(element: "{sv}", [option("handle_token", .string(token))]),
      ],
      token: token
    ) { [weak self] code, _ in
      guard let self else { return }
      guard code == 0 else { return self.fail("the desktop refused the shortcuts (\(Self.describe(code)))") }
      then()
    }
  }

  /// Calls a method that answers through a request object, and hands its `Response` to `answer`.
  private func request(
    _ member: String, _ body: [DBusValue], token: String, answer: @escaping (UInt32, [String: DBusValue]) -> Void
  ) {
    let sender = (bus?.uniqueName ?? "").drop { $0 == ":" }.replacingEvery(".", with: "_")
    let expected = "\(Self.requests)/\(sender)/\(token)"
    waiting[expected] = answer
    call(Self.path, Self.interface, member, body) { [weak self] result in
      guard let self else { return }
      switch result {
      case .failure(let error):
        self.waiting[expected] = nil
        let absent = error.why.contains("UnknownMethod") || error.why.contains("UnknownInterface")
        self.fail(absent ? Self.missing : "the desktop portal refused \(member) (\(error.why))")
      case .success(let reply):
        // An older portal names its request object otherwise: follow it there.
        if let handle = reply.body.first?.string, handle != expected, let answer = self.waiting[expected] {
          self.waiting[expected] = nil
          self.waiting[handle] = answer
        }
      }
    }
  }

  private func nextToken() -> String {
    tokens += 1
    return "flow\(tokens)"
  }

  private func option(_ key: String, _ value: DBusValue) -> DBusValue {
    .dictEntry(.string(key), .variant(value))
  }

  static func describe(_ code: UInt32) -> String {
    switch code {
    case 1: "the person cancelled"
    default: "response \(code)"
    }
  }
}
