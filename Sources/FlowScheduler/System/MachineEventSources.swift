import CLinux
import FlowSystem
import Glibc

/// The system and session services `flow schedule` arms triggers on (SPEC §10): drives (UDisks2), Wi-Fi
/// and the network (NetworkManager), power and battery (UPower), the session and sleep (logind),
/// applications (the systemd user manager), global shortcuts (the desktop portal); one connection per
/// bus, only for the sources asked for.
///
/// Made for the scheduler's one `poll` (``RealtimeClock``): ``descriptor`` is an epoll descriptor holding
/// the bus connections, stable while connections come and go; when it can be read, ``readable()`` reads
/// what is waiting without blocking and hands each ``MachineEvent`` to `events`, in order. Nothing ever
/// waits for a service's answer — replies come back through the same descriptor — so a service that never
/// answers cannot stall the scheduler; only connecting to a bus, in ``arm()``, waits, at most 2 seconds.
///
/// How each service stands is said through `reports`, once per change and by name: armed, absent (armed
/// when it appears), gone (armed again when it returns, its state read afresh), or why it cannot be
/// watched — no bus at all included. Nothing here ends the process.
///
/// Used on the scheduler's thread only: `events` and `reports` are called there, inside ``readable()``
/// or ``arm()``.
public final class MachineEventSources: @unchecked Sendable {
  /// The epoll descriptor to wait on.
  public let descriptor: Int32
  private let environment: [String: String]
  private let userID: UInt32
  private var connections: [DBusBus: DBusConnection] = [:]
  private var watches: [BusServiceWatch] = []
  private var logind: LogindWatch?

  /// Prepares the watches of `sources`; nothing is connected before ``arm()``. `environment` is the
  /// daemon's (the bus addresses, `XDG_SESSION_ID`). `shortcuts` are bound for ``MachineSource/hotkeys``,
  /// with `appID` registered with the portal first (portals from 1.21 refuse an application without
  /// one; it needs an installed `APP_ID.desktop`).
  public init(
    _ sources: Set<MachineSource>, environment: [String: String], userID: UInt32 = getuid(),
    processID: Int32 = getpid(), appID: String? = nil, shortcuts: [HotkeyShortcut] = [],
    events: @escaping @Sendable (MachineEvent) -> Void,
    reports: @escaping @Sendable (MachineSourceReport) -> Void
  ) throws(LaunchFailure) {
    descriptor = clinux_epoll_create()
    guard descriptor >= 0 else {
      throw LaunchFailure("cannot watch the buses (epoll): \(String(cString: strerror(errno)))")
    }
    self.environment = environment
    self.userID = userID
    for source in sources.sorted() {
      switch source {
      case .udisks: watches.append(UDisksWatch(source: source, emit: events, report: reports))
      case .networkManager: watches.append(NetworkManagerWatch(source: source, emit: events, report: reports))
      case .upower: watches.append(UPowerWatch(source: source, emit: events, report: reports))
      case .logind:
        let watch = LogindWatch(
          sessionID: environment["XDG_SESSION_ID"], processID: processID, userID: userID, emit: events,
          report: reports)
        logind = watch
        watches.append(watch)
      case .apps: watches.append(AppScopeWatch(source: source, emit: events, report: reports))
      case .hotkeys:
        watches.append(GlobalShortcutsWatch(appID: appID, shortcuts: shortcuts, emit: events, report: reports))
      }
    }
  }

  deinit {
    close(descriptor)
  }

  /// Waits on ``descriptor`` in `clock`'s poll from now on.
  public func watch(with clock: RealtimeClock) {
    clock.watch(descriptor) { [weak self] in self?.readable() }
  }

  /// Connects to each bus a source needs and starts following its services. Their states arrive as
  /// their answers do, through ``readable()``; a bus that cannot be reached is said at once, for each
  /// source on it. Calling it again (on reload) connects the buses that were missing or have gone, and
  /// leaves the others be.
  public func arm() {
    for bus in [DBusBus.system, .session] {
      let onBus = watches.filter { $0.source.bus == bus }
      guard !onBus.isEmpty, connections[bus] == nil else { continue }
      let connection: DBusConnection
      do {
        connection = try DBusConnection.connect(bus, environment: environment, uid: userID)
      } catch {
        for watch in onBus { watch.detach("there is no \(Self.name(bus)) (\(error.why))") }
        continue
      }
      connections[bus] = connection
      _ = clinux_epoll_add(descriptor, connection.descriptor)
      for watch in onBus { watch.attach(to: connection) }
    }
  }

  /// Reads what the buses sent, without waiting, and hands on what it means.
  public func readable() {
    var ready = [Int32](repeating: -1, count: 4)
    let count = ready.withUnsafeMutableBufferPointer {
      clinux_epoll_ready(descriptor, $0.baseAddress, Int32($0.count))
    }
    for fd in ready.prefix(Int(max(count, 0))) {
      guard let (bus, connection) = connections.first(where: { $0.value.descriptor == fd }) else { continue }
      let onBus = watches.filter { $0.source.bus == bus }
      do {
        try connection.readWaiting { signal in
          for watch in onBus where watch.isFromOwner(signal) { watch.handle(signal) }
        }
      } catch {
        _ = clinux_epoll_remove(descriptor, fd)
        connections[bus] = nil
        for watch in onBus { watch.detach("the \(Self.name(bus)) closed the connection (\(error.why))") }
      }
    }
  }

  // MARK: - Sleep

  /// How long logind lets a delay inhibitor hold sleep back (`InhibitDelayMaxSec`), once logind is
  /// armed: the longest the before-sleep runs may take.
  public var sleepDelayLimit: Duration? { logind?.delayLimit }

  /// Whether a delay inhibitor is held now.
  public var isHoldingSleep: Bool { logind?.isHoldingSleep ?? false }

  /// Holds sleep back (a logind delay inhibitor) from now on, so that before-sleep workflows can run:
  /// taken now if logind is armed, else when it is, and again after every resume. Does nothing without
  /// the logind source.
  public func holdSleep() { logind?.holdSleep() }

  /// Lets the machine sleep: closes the inhibitor, when the before-sleep runs have ended or
  /// ``sleepDelayLimit`` has passed. The next is taken after resume.
  public func releaseSleep() { logind?.releaseSleep() }

  static func name(_ bus: DBusBus) -> String {
    switch bus {
    case .system: "system bus"
    case .session: "session bus"
    }
  }
}
