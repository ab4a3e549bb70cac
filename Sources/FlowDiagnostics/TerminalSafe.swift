/// Text from a workflow file made safe to print at a terminal.
///
/// A YAML string can hold any character through its escapes (`"\e[2A\e[2K"`), and a terminal obeys the
/// control characters it is sent: a file shared by a stranger could move the cursor, erase the red line
/// of the permission card above its own description, or retitle the window. Everything flow prints
/// from a workflow goes through here first: tab and line breaks become spaces, and every other control
/// character becomes visible, as its Unicode control picture (`␛` for escape) or `�` (C1 controls).
/// The bidirectional embeddings, overrides and isolates (U+202A–202E, U+2066–2069) become `�` too: a
/// terminal that honours them would show `gnp.exe` for `exe.png` ("Trojan Source", CVE-2021-42574), so
/// a card could read differently from the file it describes.
public enum TerminalSafe {
  public static func text(_ text: String) -> String {
    guard hasControl(text) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: out.append(" ")
      case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: out.append("\u{2421}")
      case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// Whether `text` holds a control character, looked for in its bytes: most text has none, and this
  /// runs for every piece of every line `flow show` draws. C1 controls are 0xC2 0x80–0x9F in UTF-8; a
  /// lone 0xC2 starts ordinary characters too (`·` is 0xC2 0xB7). The bidirectional controls are
  /// 0xE2 0x80 0xAA–0xAE and 0xE2 0x81 0xA6–0xA9.
  static func hasControl(_ text: String) -> Bool {
    var (previous, beforeThat): (UInt8, UInt8) = (0, 0)
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0) { return true }
      if beforeThat == 0xE2,
        (previous == 0x80 && (0xAA...0xAE).contains(byte)) || (previous == 0x81 && (0xA6...0xA9).contains(byte))
      {
        return true
      }
      (previous, beforeThat) = (byte, previous)
    }
    return false
  }

  /// One character of a source line: itself, or what ``text(_:)`` makes of a control character.
  static func scalar(_ scalar: Unicode.Scalar) -> String {
    hasControl(String(scalar)) ? text(String(scalar)) : String(scalar)
  }
}
