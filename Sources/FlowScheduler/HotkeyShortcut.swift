import Foundation

/// A global shortcut to bind through the desktop portal: the id that ``MachineEvent/hotkey(id:)`` says
/// when it is pressed, what it does (the desktop shows it when asking the person), and the keys asked for.
/// The desktop has the last word on the keys: it may ask the person, or bind others.
public struct HotkeyShortcut: Sendable, Hashable {
  public var id: String
  public var description: String
  /// The keys, in the form of the XDG shortcuts specification (`CTRL+ALT+d`); ``portalTrigger(_:)``
  /// turns a chord as a workflow writes it (`Ctrl+Alt+D`) into it.
  public var trigger: String?

  public init(id: String, description: String, trigger: String?) {
    self.id = id
    self.description = description
    self.trigger = trigger
  }

  /// `Ctrl+Alt+D` as the portal writes it: modifiers by their specification names (`CTRL`, `ALT`,
  /// `SHIFT`, `LOGO`), a letter key in lower case (an xkb keysym name), other keys as written.
  public static func portalTrigger(_ chord: String) -> String {
    let parts = chord.split(separator: "+").map { $0.trimmingCharacters(in: .whitespaces) }
    return parts.enumerated().map { index, part in
      switch part.lowercased() {
      case "ctrl", "control": return "CTRL"
      case "alt": return "ALT"
      case "shift": return "SHIFT"
      case "super", "meta", "logo", "win", "cmd": return "LOGO"
      default:
        guard index == parts.count - 1, part.count == 1 else { return part }
        return part.lowercased()
      }
    }.joined(separator: "+")
  }
}
