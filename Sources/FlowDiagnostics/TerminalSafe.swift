/// Text from a workflow file made safe to print at a terminal.
///
/// A YAML string can hold any character through its escapes (`"\e[2A\e[2K"`), and a terminal obeys the
/// control characters it is sent: a file shared by a stranger could move the cursor, erase the red line
/// of the permission card above its own description, or retitle the window. Everything flow prints
/// from a workflow goes through here first: tab and line breaks become spaces, and every other control
/// character becomes visible, as its Unicode control picture (`␛` for escape) or `�` (C1 controls).
/// The bidirectional embeddings, overrides and isolates (U+202A–202E, U+2066–2069) become `�` too: a
/// terminal that honours them would show `gnp.exe` for `exe.png` ("Trojan Source", CVE-2021-42574), so
/// a card could read differently from the file it describes. Characters that draw nothing (zero-width
/// spaces, direction marks, the byte order mark, tag characters, line and paragraph separators) are
/// shown by their code point, `<U+200B>`: a name or a URL could otherwise hide one, and read the same as
/// another.
public enum TerminalSafe {
  public static func text(_ text: String) -> String { sanitised(text, keepingLines: false) }

  /// Text printed as it is at run time (`show`, `ask`, the results of `flow do`): like ``text(_:)``, but line
  /// breaks and tabs stay, since a value may be several lines; a carriage return (which could draw over the
  /// line, a prompt erasing itself) is shown as `␍` unless it ends a line (CRLF).
  public static func lines(_ text: String) -> String { sanitised(text, keepingLines: true) }

  private static func sanitised(_ text: String, keepingLines: Bool) -> String {
    guard hasControl(text) else { return text }
    var out = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    for (index, scalar) in scalars.enumerated() {
      switch scalar.value {
      case 0x09 where keepingLines, 0x0A where keepingLines: out.append(scalar)
      case 0x0D where keepingLines:
        if index + 1 < scalars.count, scalars[index + 1] == "\n" { continue }
        out.append("\u{240D}")
      case 0x09, 0x0A, 0x0D: out.append(" ")
      case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: out.append("\u{2421}")
      case 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
      case _ where isInvisible(scalar): out.append(contentsOf: codePoint(scalar).unicodeScalars)
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// Whether `text` holds a control or invisible character. Looked for in its bytes first: most text is
  /// ASCII without controls, and this runs for every piece of every line `flow show` draws; only text with
  /// other characters is looked at scalar by scalar.
  static func hasControl(_ text: String) -> Bool {
    var ascii = true
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F { return true }
      if byte >= 0x80 { ascii = false }
    }
    return !ascii
      && text.unicodeScalars.contains { scalar in
        (0x80..<0xA0).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
          || (0x2066...0x2069).contains(scalar.value) || isInvisible(scalar)
      }
  }

  /// Characters that draw nothing, or a line break where none is expected, and change how text compares:
  /// the zero-width space and its kin, the directional marks (U+200E, U+200F, U+061C), word joiners and
  /// invisible operators, the byte order mark, tag characters, U+2028 and U+2029. Zero-width joiners and
  /// non-joiners (U+200C, U+200D) stay: emoji and several scripts need them.
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029,
      0x2060...0x2064, 0x206A...0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xE0000...0xE007F:
      true
    default: false
    }
  }

  /// `<U+200B>`.
  public static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "<U+\(String(repeating: "0", count: max(4 - hex.count, 0)))\(hex)>"
  }

  /// One character of a source line: itself, or what ``text(_:)`` makes of a control character.
  static func scalar(_ scalar: Unicode.Scalar) -> String {
    hasControl(String(scalar)) ? text(String(scalar)) : String(scalar)
  }
}
