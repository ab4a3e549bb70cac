import FlowSystem

/// NetworkManager on the system bus: its global `State` (70 is "connected, global": the internet) and
/// its `ActiveConnections`. A Wi-Fi network is joined when an active connection of type
/// `802-11-wireless` reaches state 2 (activated), and left when it deactivates or goes; its name is the
/// SSID of the access point the connection uses (`SpecificObject`), not the connection's own name, which
/// a person may have changed.
///
/// What is active when arming is the baseline and fires nothing. After NetworkManager restarts, the
/// networks joined then and now are compared, and the differences fire.
final class NetworkManagerWatch: BusServiceWatch {
  static let path = "/org/freedesktop/NetworkManager"
  static let interface = "org.freedesktop.NetworkManager"
  static let activeRoot = "/org/freedesktop/NetworkManager/ActiveConnection"
  static let activeInterface = "org.freedesktop.NetworkManager.Connection.Active"
  static let accessPoint = "org.freedesktop.NetworkManager.AccessPoint"
  static let connectedGlobal: UInt32 = 70
  static let activated: UInt32 = 2

  /// What is known of one active connection.
  private struct Active {
    var wifi = false
    var ssid: String?
    var state: UInt32 = 0
    /// Whether its joining has been counted (fired, or part of the baseline).
    var joined = false
  }

  private var connected: Bool?
  private var active: [String: Active] = [:]
  /// The SSIDs joined when NetworkManager left, to compare with when it returns.
  private var joinedBefore: Set<String>?
  /// Connections still being read while arming: arming ends when none is.
  private var reading = 0
  private var arming: ((String?) -> Void)?

  override var rules: [DBusMatchRule] {
    [
      .propertiesChanged(sender: service, path: Self.path),
      .propertiesChanged(sender: service, pathNamespace: Self.activeRoot),
    ]
  }

  override func arm(_ ready: @escaping (String?) -> Void) {
    properties(Self.path, Self.interface) { [weak self] result in
      guard let self else { return }
      switch result {
      case .failure(let error):
        self.fail("cannot read its properties (\(error.why))")
      case .success(let values):
        self.update(state: values["State"]?.uint32)
        self.arming = ready
        self.reading += 1
        self.sync(values["ActiveConnections"]?.items?.compactMap(\.string) ?? [])
        self.readDone()
      }
    }
  }

  override func disarm() {
    joinedBefore = Set(active.values.filter(\.joined).compactMap(\.ssid))
    active = [:]
    reading = 0
    arming = nil
  }

  override func handle(_ signal: DBusMessage) {
    guard let change = signal.propertiesChanged, let path = signal.path else { return }
    if path == Self.path, change.interface == Self.interface {
      if let state = change.changed["State"]?.uint32 { update(state: state) }
      if let paths = change.changed["ActiveConnections"]?.items { sync(paths.compactMap(\.string)) }
    } else if change.interface == Self.activeInterface, active[path] != nil,
      let state = change.changed["State"]?.uint32
    {
      active[path]?.state = state
      settle(path)
    }
  }

  private func update(state: UInt32?) {
    guard let state else { return }
    let now = state == Self.connectedGlobal
    defer { connected = now }
    if let before = connected, before != now { emit(.network(connected: now)) }
  }

  /// Brings the known active connections in line with NetworkManager's list: those gone are left, new
  /// ones are read.
  private func sync(_ paths: [String]) {
    for (path, connection) in active where !paths.contains(path) {
      active[path] = nil
      if connection.joined, let ssid = connection.ssid, arming == nil { emit(.wifi(joined: false, ssid: ssid)) }
    }
    for path in paths where active[path] == nil {
      active[path] = Active()
      read(path)
    }
  }

  private func read(_ path: String) {
    reading += 1
    properties(path, Self.activeInterface) { [weak self] result in
      guard let self else { return }
      guard case .success(let values) = result, self.active[path] != nil,
        values["Type"]?.string == "802-11-wireless"
      else { return self.readDone() }
      self.active[path]?.wifi = true
      self.active[path]?.state = values["State"]?.uint32 ?? 0
      let fallback = values["Id"]?.string
      guard let point = values["SpecificObject"]?.string, point != "/" else {
        self.active[path]?.ssid = fallback
        self.settle(path)
        return self.readDone()
      }
      self.property(point, Self.accessPoint, "Ssid") { [weak self] result in
        guard let self else { return }
        let bytes = (try? result.get())?.bytes
        self.active[path]?.ssid = bytes.map { String(decoding: $0, as: UTF8.self) } ?? fallback
        self.settle(path)
        self.readDone()
      }
    }
  }

  /// Fires joined or left when a Wi-Fi connection's state says so, once each.
  private func settle(_ path: String) {
    guard let connection = active[path], connection.wifi, let ssid = connection.ssid else { return }
    let isJoined = connection.state == Self.activated
    guard isJoined != connection.joined else { return }
    active[path]?.joined = isJoined
    // While arming, what is found is the baseline, told apart from the one before a restart at the end.
    if arming == nil { emit(.wifi(joined: isJoined, ssid: ssid)) }
  }

  private func readDone() {
    guard reading > 0 else { return }
    reading -= 1
    guard reading == 0, let ready = arming else { return }
    arming = nil
    if let before = joinedBefore {
      let now = Set(active.values.filter(\.joined).compactMap(\.ssid))
      for ssid in before.subtracting(now).sorted() { emit(.wifi(joined: false, ssid: ssid)) }
      for ssid in now.subtracting(before).sorted() { emit(.wifi(joined: true, ssid: ssid)) }
    }
    joinedBefore = nil
    ready(nil)
  }
}
