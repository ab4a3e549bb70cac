/// Text from a workflow file made safe to print at a terminal.
///
/// A YAML string can hold any character through its escapes (`"\e[2A\e[2K"`), and a terminal obeys the
/// control characters it is sent: a file shared by a stranger could move the cursor, erase the red line
/// of the permission card above its own description, or retitle the window. Everything flow prints
/// from a workflow goes through here first: tab and line breaks become spaces, and every other control
/// character becomes visible, as its Unicode control picture (`␛` for escape) or `�` (C1 controls).
public enum TerminalSafe {
  public static func text(_ text: String) -> String {
    guard hasControl(text) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: out.append(" ")
      case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: out.append("\u{2421}")
      case 0x80..<0xA0: out.append("\u{FFFD}")
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// Whether `text` holds a control character, looked for in its bytes: most text has none, and this
  /// runs for every piece of every line `flow show` draws. C1 controls are 0xC2 0x80–0x9F in UTF-8; a
  /// lone 0xC2 starts ordinary characters too (`·` is 0xC2 0xB7).
  static func hasControl(_ text: String) -> Bool {
    var afterC2 = false
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F || (afterC2 && byte < 0xA0) { return true }
      afterC2 = byte == 0xC2
    }
    return false
  }

  /// One character of a source line: itself, or what ``text(_:)`` makes of a control character.
  static func scalar(_ scalar: Unicode.Scalar) -> String {
    scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) ? text(String(scalar)) : String(scalar)
  }
}
