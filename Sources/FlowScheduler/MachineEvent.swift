import FlowModel

/// Something that happened on the machine, from a system or session service, which a trigger under `on:`
/// may be waiting for (SPEC §10). The values say what happened, not what to do about it: matching them
/// to triggers is the scheduler's.
public enum MachineEvent: Sendable, Hashable {
  /// A filesystem on a removable drive was mounted or unmounted (UDisks2). `mountPoint` is where it is (or
  /// was) mounted.
  case drive(mounted: Bool, label: String?, uuid: String?, mountPoint: String?)
  /// A Wi-Fi connection became active or stopped being active (NetworkManager), by its access point's SSID.
  case wifi(joined: Bool, ssid: String)
  /// The machine reached the internet or lost it (NetworkManager's global state, 70 = connected).
  case network(connected: Bool)
  /// The machine went on battery or back on mains (UPower).
  case power(onBattery: Bool)
  /// The battery's charge changed (UPower's display device). Only a changed percentage counts: UPower
  /// sends many signals that change nothing but the time of the reading.
  case battery(percentage: Double, onBattery: Bool)
  /// This login session was locked, unlocked, or the machine is going to sleep or woke up (logind).
  case session(Trigger.SessionEvent)
  /// An application started or ended, by its application id (a systemd user scope named as
  /// systemd.io/DESKTOP_ENVIRONMENTS says: `app-gnome-org.mozilla.firefox-4242.scope`).
  case app(opened: Bool, id: String)
  /// A global shortcut bound through the desktop portal was pressed, by the id it was bound with.
  case hotkey(id: String)
}
