/// Which message bus: the machine's (system services such as UPower, NetworkManager, logind, UDisks2) or
/// the login session's (the user's systemd, the desktop portal).
public enum DBusBus: Sendable, Hashable {
  case system
  case session
}
