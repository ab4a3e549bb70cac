import FlowSystem
import Glibc

/// One service watched on a bus for one ``MachineSource``: the owner tracking and the reports every
/// source shares, with the service's own reading and signals in a subclass.
///
/// Its owner comes from ``DBusConnection/trackOwner(of:_:)``. When one appears (the first time, or after
/// the service restarted) the subclass's ``arm(_:)`` reads the service's state afresh and subscribes; when
/// it leaves, ``disarm()`` forgets what belonged to it. Replies to calls made for an owner that has since
/// changed are dropped (``call(_:_:_:_:keepingDescriptors:reply:)``), so a restart mid-arming cannot mix
/// two instances' state. Match rules name the service by its well-known name, which the bus applies to
/// whoever owns it, so they are added once per connection.
///
/// Used on one thread: the scheduler's, inside ``MachineEventSources/readable()``.
class BusServiceWatch {
  let source: MachineSource
  let emit: (MachineEvent) -> Void
  private let report: (MachineSourceReport) -> Void
  private(set) var bus: DBusConnection?
  private(set) var owner: String?
  private var generation = 0
  private var armed = false
  private var everArmed = false
  /// The last state said, so that each is said once.
  private var said: MachineSourceReport.State?

  init(source: MachineSource, emit: @escaping (MachineEvent) -> Void, report: @escaping (MachineSourceReport) -> Void) {
    self.source = source
    self.emit = emit
    self.report = report
  }

  var service: String { source.service }

  // MARK: - What a subclass provides

  /// The signals it needs, added once per connection.
  var rules: [DBusMatchRule] { [] }

  /// Reads the service's state and subscribes; calls `ready` once, with nil when armed, or a note when
  /// part of it cannot be watched. A failure that leaves nothing to watch is ``fail(_:)``.
  func arm(_ ready: @escaping (String?) -> Void) { ready(nil) }

  /// The owner left: forget what belonged to it (objects, a session), keep what lets a change be told
  /// when it returns (the last values seen).
  func disarm() {}

  /// A signal from the current owner that one of ``rules`` matched.
  func handle(_ signal: DBusMessage) {}

  // MARK: - The shared part

  /// Starts on `bus`: adds the rules and follows the service's owner.
  func attach(to bus: DBusConnection) {
    self.bus = bus
    for rule in rules { bus.addMatch(rule) }
    bus.trackOwner(of: service) { [weak self] owner in self?.ownerChanged(to: owner) }
  }

  /// The connection ended (the bus stopped): nothing is watched until a new one attaches.
  func detach(_ why: String) {
    if owner != nil { disarm() }
    generation += 1
    owner = nil
    armed = false
    bus = nil
    say(.unavailable(why))
  }

  /// Says a state that is not the one said last.
  func say(_ state: MachineSourceReport.State) {
    guard state != said else { return }
    said = state
    report(MachineSourceReport(source: source, state: state))
  }

  /// Arming failed in a way that leaves nothing watched.
  func fail(_ why: String) {
    armed = false
    say(.unavailable(why))
  }

  private func ownerChanged(to newOwner: String?) {
    if newOwner == owner, said != nil { return }
    if owner != nil {
      // The owner left, or another took the name over: what was read from it is stale.
      generation += 1
      disarm()
      if armed { say(.gone) }
      armed = false
    }
    owner = newOwner
    guard newOwner != nil else {
      if !everArmed { say(.absent) }
      return
    }
    generation += 1
    let current = generation
    arm { [weak self] note in
      guard let self, current == self.generation else { return }
      self.armed = true
      let returned = self.everArmed || self.said == .absent
      self.say(returned ? .appeared : .armed(note: note))
      self.everArmed = true
    }
  }

  /// Calls a method of the service's current owner; the reply is dropped if the owner changes first.
  func call(
    _ path: String, _ interface: String, _ member: String, _ body: [DBusValue] = [], keepingDescriptors: Bool = false,
    reply: @escaping (Result<DBusMessage, DBusError>) -> Void
  ) {
    guard let bus else { return }
    let current = generation
    bus.send(
      .methodCall(destination: service, path: path, interface: interface, member: member, body: body),
      keepingDescriptors: keepingDescriptors
    ) { [weak self] result in
      guard let self, current == self.generation else {
        if keepingDescriptors, case .success(let message) = result {
          for descriptor in message.unixFDs { Glibc.close(descriptor) }
        }
        return
      }
      reply(result)
    }
  }

  /// Every property of `interface` at `path`, dropped like ``call(_:_:_:_:keepingDescriptors:reply:)``.
  func properties(
    _ path: String, _ interface: String, reply: @escaping (Result<[String: DBusValue], DBusError>) -> Void
  ) {
    call(path, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)]) { result in
      reply(result.map { $0.body.first?.dictionary ?? [:] })
    }
  }

  /// One property, unwrapped, dropped like ``call(_:_:_:_:keepingDescriptors:reply:)``.
  func property(
    _ path: String, _ interface: String, _ name: String, reply: @escaping (Result<DBusValue, DBusError>) -> Void
  ) {
    call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)]) { result in
      reply(result.map { $0.body.first?.unwrapped ?? .array(element: "v", []) })
    }
  }

  /// Whether `signal` comes from the service's current owner.
  func isFromOwner(_ signal: DBusMessage) -> Bool {
    owner != nil && signal.sender == owner
  }
}
