import FlowSystem

/// UDisks2 on the system bus: filesystems on removable drives, mounted and unmounted.
///
/// Its ObjectManager (`/org/freedesktop/UDisks2`) says which block devices exist
/// (`InterfacesAdded`/`InterfacesRemoved`); a filesystem's `MountPoints` say whether it is mounted. A
/// drive is plugged in first and mounted after (by the desktop, udiskie or a person), so mounting is
/// told by `PropertiesChanged` of `MountPoints`, not by the device appearing. A filesystem counts when
/// its drive is `Removable` (USB, SD cards), or, where its drive is not known, when UDisks does not
/// call it a system device (`HintSystem`).
final class UDisksWatch: BusServiceWatch {
  static let root = "/org/freedesktop/UDisks2"
  static let blockDevices = "/org/freedesktop/UDisks2/block_devices"
  static let objectManager = "org.freedesktop.DBus.ObjectManager"
  static let block = "org.freedesktop.UDisks2.Block"
  static let filesystem = "org.freedesktop.UDisks2.Filesystem"
  static let drive = "org.freedesktop.UDisks2.Drive"

  /// What is known of one block device.
  private struct Device {
    var label: String?
    var uuid: String?
    var drive: String?
    var hintSystem = true
    var isFilesystem = false
    var mountPoints: [String] = []
  }

  private var devices: [String: Device] = [:]
  /// Drives, by path: whether each is removable.
  private var drives: [String: Bool] = [:]

  override var rules: [DBusMatchRule] {
    [
      DBusMatchRule(sender: service, interface: Self.objectManager, path: Self.root),
      .propertiesChanged(sender: service, pathNamespace: Self.blockDevices),
    ]
  }

  override func arm(_ ready: @escaping (String?) -> Void) {
    call(Self.root, Self.objectManager, "GetManagedObjects") { [weak self] result in
      guard let self else { return }
      switch result {
      case .failure(let error):
        self.fail("cannot list its devices (\(error.why))")
      case .success(let reply):
        // What is mounted now is the baseline: nothing fires for it.
        for (path, interfaces) in reply.body.first?.dictionary ?? [:] {
          self.absorb(path, interfaces.dictionary ?? [:], announcing: false)
        }
        ready(nil)
      }
    }
  }

  override func disarm() {
    devices = [:]
    drives = [:]
  }

  override func handle(_ signal: DBusMessage) {
    switch signal.member {
    case "InterfacesAdded":
      guard signal.body.count == 2, let path = signal.body[0].string, let interfaces = signal.body[1].dictionary
      else { return }
      absorb(path, interfaces, announcing: true)
    case "InterfacesRemoved":
      guard signal.body.count == 2, let path = signal.body[0].string else { return }
      let removed = (signal.body[1].items ?? []).compactMap(\.string)
      if removed.contains(Self.drive) { drives[path] = nil }
      guard devices[path] != nil, removed.contains(Self.filesystem) || removed.contains(Self.block) else { return }
      // A drive pulled out while mounted: it is unmounted now, whatever UDisks says next.
      update(path, mountPoints: [])
      if removed.contains(Self.block) { devices[path] = nil } else { devices[path]?.isFilesystem = false }
    case "PropertiesChanged":
      guard let change = signal.propertiesChanged, let path = signal.path else { return }
      if change.interface == Self.block {
        absorb(path, [Self.block: .array(element: "{sv}", entries(change.changed))], announcing: true)
      } else if change.interface == Self.filesystem {
        if let points = change.changed["MountPoints"] {
          devices[path, default: Device()].isFilesystem = true
          update(path, mountPoints: Self.mountPoints(points))
        } else if change.invalidated.contains("MountPoints") {
          property(path, Self.filesystem, "MountPoints") { [weak self] result in
            guard let self, let points = try? result.get() else { return }
            self.update(path, mountPoints: Self.mountPoints(points))
          }
        }
      }
    default:
      break
    }
  }

  /// Takes in an object's interfaces and properties (from `GetManagedObjects`, `InterfacesAdded` or a
  /// change of its `Block` properties).
  private func absorb(_ path: String, _ interfaces: [String: DBusValue], announcing: Bool) {
    if let drive = interfaces[Self.drive]?.dictionary {
      drives[path] = drive["Removable"]?.bool ?? drive["MediaRemovable"]?.bool ?? false
    }
    guard path.hasPrefix(Self.blockDevices + "/") else { return }
    var device = devices[path] ?? Device()
    if let block = interfaces[Self.block]?.dictionary {
      if let label = block["IdLabel"]?.string { device.label = label.isEmpty ? nil : label }
      if let uuid = block["IdUUID"]?.string { device.uuid = uuid.isEmpty ? nil : uuid }
      if let drive = block["Drive"]?.string { device.drive = drive == "/" ? nil : drive }
      if let hint = block["HintSystem"]?.bool { device.hintSystem = hint }
    }
    devices[path] = device
    if let filesystem = interfaces[Self.filesystem]?.dictionary {
      devices[path]?.isFilesystem = true
      let points = filesystem["MountPoints"].map(Self.mountPoints) ?? []
      if announcing { update(path, mountPoints: points) } else { devices[path]?.mountPoints = points }
    }
  }

  /// Records a filesystem's mount points, and fires when it went from none to some or back.
  private func update(_ path: String, mountPoints: [String]) {
    guard let device = devices[path] else { return }
    devices[path]?.mountPoints = mountPoints
    let (was, now) = (!device.mountPoints.isEmpty, !mountPoints.isEmpty)
    guard was != now, device.isFilesystem, isRemovable(device) else { return }
    emit(
      .drive(
        mounted: now, label: device.label, uuid: device.uuid,
        mountPoint: now ? mountPoints.first : device.mountPoints.first))
  }

  private func isRemovable(_ device: Device) -> Bool {
    if let drive = device.drive, let removable = drives[drive] { return removable }
    return !device.hintSystem
  }

  /// `MountPoints` is an array of byte arrays, each NUL-terminated.
  static func mountPoints(_ value: DBusValue) -> [String] {
    (value.items ?? []).compactMap { item in
      item.bytes.map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }.filter { !$0.isEmpty }
  }

  private func entries(_ values: [String: DBusValue]) -> [DBusValue] {
    values.map { .dictEntry(.string($0.key), .variant($0.value)) }
  }
}
