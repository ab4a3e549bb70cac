import FlowSystem
import Glibc

/// logind on the system bus: this login session's `Lock` and `Unlock`, the machine's `PrepareForSleep`,
/// and a delay inhibitor so that workflows started before sleep can finish first.
///
/// The session is the one named by `XDG_SESSION_ID`, else the one this process belongs to
/// (`GetSessionByPID`), else the user's graphical session (`Display` of the user's object): `flow
/// schedule` runs as a systemd user service, which is in no session of its own.
///
/// Sleep: while a delay inhibitor is held (`Inhibit("sleep", "flow", …, "delay")` returns a descriptor),
/// logind waits, after `PrepareForSleep(true)`, until it is closed or `InhibitDelayMaxSec` has passed. The
/// scheduler asks for one with ``holdSleep()``, and closes it with ``releaseSleep()`` when the
/// before-sleep runs have ended; after resume (`PrepareForSleep(false)`) one is taken again, ready for the
/// next sleep.
final class LogindWatch: BusServiceWatch {
  static let path = "/org/freedesktop/login1"
  static let manager = "org.freedesktop.login1.Manager"
  static let session = "org.freedesktop.login1.Session"
  static let sessions = "/org/freedesktop/login1/session"
  /// logind's default `InhibitDelayMaxSec`, when it does not say.
  static let defaultDelay = Duration.seconds(5)

  private let sessionID: String?
  private let processID: Int32
  private let userID: UInt32
  private var sessionPath: String?
  /// The inhibitor's descriptor, or -1.
  private var inhibitor: Int32 = -1
  private var inhibiting = false
  private var wantsHold = false
  /// How long logind waits for a delay inhibitor, from `InhibitDelayMaxSec`.
  private(set) var delayLimit: Duration?

  init(
    sessionID: String?, processID: Int32, userID: UInt32, emit: @escaping (MachineEvent) -> Void,
    report: @escaping (MachineSourceReport) -> Void
  ) {
    self.sessionID = sessionID
    self.processID = processID
    self.userID = userID
    super.init(source: .logind, emit: emit, report: report)
  }

  deinit { if inhibitor >= 0 { Glibc.close(inhibitor) } }

  var isHoldingSleep: Bool { inhibitor >= 0 }

  override var rules: [DBusMatchRule] {
    [
      DBusMatchRule(sender: service, interface: Self.manager, member: "PrepareForSleep", path: Self.path),
      DBusMatchRule(sender: service, interface: Self.session, pathNamespace: Self.sessions),
    ]
  }

  override func arm(_ ready: @escaping (String?) -> Void) {
    property(Self.path, Self.manager, "InhibitDelayMaxSec") { [weak self] result in
      guard let self else { return }
      // Microseconds.
      self.delayLimit = (try? result.get().number).map { .microseconds(Int64($0)) } ?? Self.defaultDelay
      self.findSession { [weak self] path in
        guard let self else { return }
        self.sessionPath = path
        let note = path == nil ? "lock and unlock are not: this process is in no login session" : nil
        guard self.wantsHold else { return ready(note) }
        self.inhibit { ready(note) }
      }
    }
  }

  override func disarm() {
    sessionPath = nil
    inhibiting = false
    // The inhibitor belonged to the logind that left.
    releaseSleep()
  }

  override func handle(_ signal: DBusMessage) {
    switch (signal.interface, signal.member) {
    case (Self.manager, "PrepareForSleep"):
      guard signal.path == Self.path, let sleeping = signal.body.first?.bool else { return }
      if sleeping {
        emit(.session(.beforeSleep))
      } else {
        if wantsHold { inhibit {} }
        emit(.session(.afterResume))
      }
    case (Self.session, "Lock"):
      if sessionPath != nil, signal.path == sessionPath { emit(.session(.lock)) }
    case (Self.session, "Unlock"):
      if sessionPath != nil, signal.path == sessionPath { emit(.session(.unlock)) }
    default:
      break
    }
  }

  /// Holds a delay inhibitor from now on: now if armed, else when armed, and again after each resume.
  func holdSleep() {
    wantsHold = true
    if owner != nil, bus != nil { inhibit {} }
  }

  /// Closes the inhibitor, if held: logind may go on to sleep.
  func releaseSleep() {
    guard inhibitor >= 0 else { return }
    Glibc.close(inhibitor)
    inhibitor = -1
  }

  private func inhibit(_ done: @escaping () -> Void) {
    guard inhibitor < 0, !inhibiting else { return done() }
    inhibiting = true
    call(
      Self.path, Self.manager, "Inhibit",
      [.string("sleep"), .string("flow"), .string("workflows run before sleep"), .string("delay")],
      keepingDescriptors: true
    ) { [weak self] result in
      guard let self else { return }
      self.inhibiting = false
      if case .success(let reply) = result, case .unixFD(let index)? = reply.body.first,
        reply.unixFDs.indices.contains(Int(index))
      {
        for (position, descriptor) in reply.unixFDs.enumerated() where position != Int(index) {
          Glibc.close(descriptor)
        }
        if self.inhibitor >= 0 { Glibc.close(self.inhibitor) }
        self.inhibitor = reply.unixFDs[Int(index)]
      } else if case .success(let reply) = result {
        for descriptor in reply.unixFDs { Glibc.close(descriptor) }
      }
      done()
    }
  }

  /// The session's object path, trying each way in turn; nil when none finds one.
  private func findSession(_ found: @escaping (String?) -> Void) {
    let byUser = { [weak self] in
      guard let self else { return }
      self.call(Self.path, Self.manager, "GetUser", [.uint32(self.userID)]) { [weak self] result in
        guard let self, let user = try? result.get().body.first?.string else { return found(nil) }
        self.property(user, "org.freedesktop.login1.User", "Display") { result in
          // A (session id, object path) pair; "/" when the user has no graphical session.
          guard case .struct(let fields)? = try? result.get(), fields.count == 2, let path = fields[1].string,
            path != "/"
          else { return found(nil) }
          found(path)
        }
      }
    }
    let byProcess = { [weak self] in
      guard let self else { return }
      self.call(Self.path, Self.manager, "GetSessionByPID", [.uint32(UInt32(bitPattern: self.processID))]) {
        result in
        if let path = try? result.get().body.first?.string { found(path) } else { byUser() }
      }
    }
    guard let sessionID, !sessionID.isEmpty else { return byProcess() }
    call(Self.path, Self.manager, "GetSession", [.string(sessionID)]) { result in
      if let path = try? result.get().body.first?.string { found(path) } else { byProcess() }
    }
  }
}
