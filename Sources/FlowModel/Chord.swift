import FlowDiagnostics

/// A key chord of a `hotkey:` trigger (`Ctrl+Alt+D`): modifiers and one key, in a canonical spelling so
/// that `ctrl+alt+d` and `Alt+Ctrl+D` are the same shortcut.
public struct Chord: Sendable, Hashable, CustomStringConvertible {
  public enum Modifier: String, Sendable, Hashable, CaseIterable, Comparable {
    case ctrl = "Ctrl", alt = "Alt", shift = "Shift", `super` = "Super"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.order < rhs.order }

    /// Where it stands in a chord as written here: Ctrl, Alt, Shift, Super.
    private var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// The names a person writes for it, lower-cased.
    var spellings: [String] {
      switch self {
      case .ctrl: ["ctrl", "control"]
      case .alt: ["alt", "option"]
      case .shift: ["shift"]
      case .super: ["super", "logo", "meta", "win", "cmd"]
      }
    }

    /// The XDG shortcuts specification's name (the portal's `preferred_trigger`).
    var portalName: String {
      switch self {
      case .ctrl: "CTRL"
      case .alt: "ALT"
      case .shift: "SHIFT"
      case .super: "LOGO"
      }
    }
  }

  public var modifiers: [Modifier]
  /// The key: an upper-case letter, a digit, `F1`…`F24`, or a named key (`Space`, `Return`…).
  public var key: String

  /// Named keys other than letters, digits and function keys, as they are written here.
  public static let namedKeys = [
    "Space", "Return", "Tab", "Escape", "BackSpace", "Delete", "Insert", "Home", "End", "Page_Up", "Page_Down",
    "Left", "Right", "Up", "Down", "Print", "Pause", "Menu",
  ]

  public var description: String { (modifiers.map(\.rawValue) + [key]).joined(separator: "+") }

  /// The chord as the portal's `preferred_trigger` takes it: `CTRL+ALT+d`.
  public var portalTrigger: String {
    (modifiers.map(\.portalName) + [key.count == 1 ? key.lowercased() : key]).joined(separator: "+")
  }

  /// Why `text` is not a chord: nil when it is one.
  public enum Problem: Error, Equatable, CustomStringConvertible {
    case empty
    case unknownPart(String, suggestion: String?)
    case noKey
    case twoKeys(String, String)
    case noModifier(String)

    public var description: String {
      switch self {
      case .empty: "the chord is empty"
      case .unknownPart(let part, _): "'\(part)' is not a modifier or a key"
      case .noKey: "the chord has modifiers but no key"
      case .twoKeys(let first, let second): "the chord names two keys, '\(first)' and '\(second)'"
      case .noModifier(let key):
        "'\(key)' alone would be taken from every program: a global shortcut needs Ctrl, Alt or Super"
      }
    }

    public var help: String {
      switch self {
      case .unknownPart(_, let suggestion?): "did you mean '\(suggestion)'?"
      default:
        "write modifiers and one key joined by '+', like 'Ctrl+Alt+D' or 'Super+F5' (modifiers: Ctrl, Alt, Shift, Super)"
      }
    }
  }

  /// Reads `Ctrl+Alt+D`; case does not matter. A letter or digit needs a modifier other than Shift;
  /// function keys (`F5`) may stand alone.
  public static func parse(_ text: String) -> Result<Chord, Problem> {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
      String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
    guard !(parts.count == 1 && parts[0].isEmpty) else { return .failure(.empty) }
    var modifiers: Set<Modifier> = []
    var key: String?
    for part in parts {
      let lower = part.lowercased()
      if let modifier = Modifier.allCases.first(where: { $0.spellings.contains(lower) }) {
        modifiers.insert(modifier)
        continue
      }
      guard let named = keyName(part) else {
        let words = Modifier.allCases.map(\.rawValue) + namedKeys
        return .failure(.unknownPart(part, suggestion: Suggestion.closest(to: part, among: words)))
      }
      if let key { return .failure(.twoKeys(key, named)) }
      key = named
    }
    guard let key else { return .failure(.noKey) }
    let isFunctionKey = key.hasPrefix("F") && key.count > 1
    if !isFunctionKey, modifiers.subtracting([.shift]).isEmpty { return .failure(.noModifier(key)) }
    return .success(Chord(modifiers: modifiers.sorted(), key: key))
  }

  /// A key's canonical name: `d` → `D`, `f5` → `F5`, `space` → `Space`; nil for anything else.
  private static func keyName(_ part: String) -> String? {
    if part.count == 1, let character = part.first, character.isASCII, character.isLetter || character.isNumber {
      return part.uppercased()
    }
    let upper = part.uppercased()
    if upper.hasPrefix("F"), let number = Int(upper.dropFirst()), (1...24).contains(number) { return "F\(number)" }
    return namedKeys.first { $0.lowercased() == part.lowercased() }
  }
}
