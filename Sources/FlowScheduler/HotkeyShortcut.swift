/// A global shortcut to bind through the desktop portal: the id that ``MachineEvent/hotkey(id:)`` says
/// when it is pressed, what it does (the desktop shows it when asking the person), and the keys asked for.
/// The desktop has the last word on the keys: it may ask the person, or bind others.
public struct HotkeyShortcut: Sendable, Hashable {
  public var id: String
  public var description: String
  /// The keys, in the form of the XDG shortcuts specification (`CTRL+ALT+d`); ``Chord/portalTrigger``
  /// turns a chord as a workflow writes it (`Ctrl+Alt+D`) into it.
  public var trigger: String?

  public init(id: String, description: String, trigger: String?) {
    self.id = id
    self.description = description
    self.trigger = trigger
  }
}
