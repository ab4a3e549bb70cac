import FlowSystem

/// UPower on the system bus: `OnBattery` of `/org/freedesktop/UPower`, and the display device's
/// `Percentage` (the combined battery, which is what a person means by "the battery").
///
/// Events are changes against the last value seen, so nothing fires on arming; after UPower restarts the
/// values are read again and a difference fires, since a change may have happened while it was away.
/// UPower signals many changes of `UpdateTime` alone: they change no value here and fire nothing.
final class UPowerWatch: BusServiceWatch {
  static let path = "/org/freedesktop/UPower"
  static let display = "/org/freedesktop/UPower/devices/DisplayDevice"
  static let interface = "org.freedesktop.UPower"
  static let device = "org.freedesktop.UPower.Device"

  private var onBattery: Bool?
  private var percentage: Double?

  override var rules: [DBusMatchRule] {
    [.propertiesChanged(sender: service, path: Self.path), .propertiesChanged(sender: service, path: Self.display)]
  }

  override func arm(_ ready: @escaping (String?) -> Void) {
    properties(Self.path, Self.interface) { [weak self] result in
      guard let self else { return }
      switch result {
      case .failure(let error):
        self.fail("cannot read its properties (\(error.why))")
      case .success(let values):
        self.update(onBattery: values["OnBattery"]?.bool)
        self.properties(Self.display, Self.device) { [weak self] result in
          // A machine without a battery has no display device to speak of: power is still watched.
          guard let self else { return }
          if case .success(let values) = result { self.update(percentage: values["Percentage"]?.number) }
          ready(nil)
        }
      }
    }
  }

  override func handle(_ signal: DBusMessage) {
    guard let change = signal.propertiesChanged else { return }
    switch (signal.path, change.interface) {
    case (Self.path, Self.interface):
      if let value = change.changed["OnBattery"]?.bool {
        update(onBattery: value)
      } else if change.invalidated.contains("OnBattery") {
        property(Self.path, Self.interface, "OnBattery") { [weak self] in self?.update(onBattery: try? $0.get().bool) }
      }
    case (Self.display, Self.device):
      if let value = change.changed["Percentage"]?.number {
        update(percentage: value)
      } else if change.invalidated.contains("Percentage") {
        property(Self.display, Self.device, "Percentage") { [weak self] in
          self?.update(percentage: try? $0.get().number)
        }
      }
    default:
      break
    }
  }

  private func update(onBattery value: Bool?) {
    guard let value else { return }
    defer { onBattery = value }
    if let before = onBattery, before != value { emit(.power(onBattery: value)) }
  }

  /// The first reading is said too: a battery threshold needs to know which side of it the battery
  /// starts on, and takes the first reading as that, never as a crossing.
  private func update(percentage value: Double?) {
    guard let value else { return }
    defer { percentage = value }
    if percentage != value { emit(.battery(percentage: value, onBattery: onBattery ?? false)) }
  }
}
