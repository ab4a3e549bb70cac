import FlowSystem

/// A service that ``MachineEventSources`` can watch. Only those asked for are armed, so a daemon whose
/// workflows wait for nothing but files talks to no bus at all.
public enum MachineSource: String, Sendable, Hashable, CaseIterable, Comparable {
  /// UDisks2: removable drives mounted and unmounted.
  case udisks
  /// NetworkManager: Wi-Fi joined and left, the internet reached and lost.
  case networkManager
  /// UPower: on battery or mains, the battery's percentage.
  case upower
  /// logind: this session locked and unlocked, sleep and resume.
  case logind
  /// The systemd user manager: applications started and ended.
  case apps
  /// The desktop portal's global shortcuts.
  case hotkeys

  /// The bus name the service owns.
  public var service: String {
    switch self {
    case .udisks: "org.freedesktop.UDisks2"
    case .networkManager: "org.freedesktop.NetworkManager"
    case .upower: "org.freedesktop.UPower"
    case .logind: "org.freedesktop.login1"
    case .apps: "org.freedesktop.systemd1"
    case .hotkeys: "org.freedesktop.portal.Desktop"
    }
  }

  /// What a person would call it.
  public var name: String {
    switch self {
    case .udisks: "UDisks2"
    case .networkManager: "NetworkManager"
    case .upower: "UPower"
    case .logind: "logind"
    case .apps: "the systemd user manager"
    case .hotkeys: "the desktop portal"
    }
  }

  public var bus: DBusBus {
    switch self {
    case .udisks, .networkManager, .upower, .logind: .system
    case .apps, .hotkeys: .session
    }
  }

  public static func < (lhs: MachineSource, rhs: MachineSource) -> Bool {
    allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
  }
}
