import FlowDiagnostics
import FoundationEssentials

/// A freedesktop.org desktop entry (the Desktop Entry Specification, version 1.4 as `desktop-file-validate` knows it): the one writer of the
/// `.desktop` files flow puts under `$XDG_DATA_HOME/applications` — the scheduler's app id for the
/// portal, and the launcher's entries for workflows — with the specification's escaping, and the one
/// reader of the keys flow wrote there.
public struct DesktopEntryFile: Sendable, Equatable {
  /// The keys of the `[Desktop Entry]` group, in the order they are written.
  public var keys: [(key: String, value: String)]

  public init(_ keys: [(key: String, value: String)]) {
    self.keys = keys
  }

  public static func == (left: Self, right: Self) -> Bool {
    left.keys.map(\.key) == right.keys.map(\.key) && left.keys.map(\.value) == right.keys.map(\.value)
  }

  /// The value of `key`, unescaped; nil when the entry has none.
  public subscript(key: String) -> String? {
    keys.first { $0.key == key }.map { Self.unescape($0.value) }
  }

  /// The file's text. Values are written as given: build them with ``string(_:)``, ``list(_:)`` and
  /// ``exec(_:)``.
  public var text: String {
    "[Desktop Entry]\n" + keys.map { "\($0.key)=\($0.value)\n" }.joined()
  }

  /// Reads the `[Desktop Entry]` group of `text` (other groups, comments and blank lines are skipped);
  /// nil when there is none.
  public static func parse(_ text: String) -> DesktopEntryFile? {
    var keys: [(key: String, value: String)] = []
    var group: Substring?
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("#") { continue }
      if line.hasPrefix("[") {
        group = line
        continue
      }
      guard group == "[Desktop Entry]", let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals].trimmingWhitespace()
      let value = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
      keys.append((key, String(value)))
    }
    return group == nil && keys.isEmpty ? nil : DesktopEntryFile(keys)
  }

  // MARK: - Values

  /// A `string` or `localestring` value: `\` `\n` `\t` `\r` escaped, a leading space as `\s` (readers
  /// strip it otherwise), and other control characters, which no value may hold, as spaces.
  public static func string(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\t": escaped += "\\t"
      case "\r": escaped += "\\r"
      case " " where escaped.isEmpty: escaped += "\\s"
      case _ where scalar.properties.generalCategory == .control: escaped += " "
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// A list of strings (`Keywords=`, `Categories=`): each escaped, `;` in one as `\;`, each ended by `;`.
  public static func list(_ items: [String]) -> String {
    items.map { string($0).replacingEvery(";", with: "\\;") + ";" }.joined()
  }

  /// An `Exec=` value running `arguments` as written: an argument with a reserved character is
  /// double-quoted, with `"` `` ` `` `$` `\` escaped inside; `%` is doubled (a field code otherwise);
  /// then the whole is escaped as a string value, which doubles those backslashes again.
  public static func exec(_ arguments: [String]) -> String {
    let quoted = arguments.map { argument -> String in
      let field = argument.replacingEvery("%", with: "%%")
      guard field.isEmpty || field.unicodeScalars.contains(where: reserved.contains) else { return field }
      var inside = ""
      for character in field {
        if "\"`$\\".contains(character) { inside.append("\\") }
        inside.append(character)
      }
      return "\"\(inside)\""
    }
    return string(quoted.joined(separator: " "))
  }

  /// The characters that make an `Exec=` argument need quotes.
  static let reserved = Set(" \t\n\"'\\><~|&;$*?#()`".unicodeScalars)

  /// A value as written, read back: `\s` `\n` `\t` `\r` `\\` undone (`\;` is left for a list's reader).
  static func unescape(_ value: String) -> String {
    var text = ""
    var escaping = false
    for character in value {
      guard escaping else {
        if character == "\\" { escaping = true } else { text.append(character) }
        continue
      }
      escaping = false
      switch character {
      case "s": text.append(" ")
      case "n": text.append("\n")
      case "t": text.append("\t")
      case "r": text.append("\r")
      case "\\": text.append("\\")
      default: text += "\\\(character)"
      }
    }
    return text
  }

  // MARK: - Files

  /// Writes the entry to `file` (its folder made if missing), replacing what is there at once.
  public func write(to file: URL) throws {
    try PrivateFiles.ensureDirectory(file.deletingLastPathComponent())
    try Data(text.utf8).write(to: file, options: .atomic)
  }

  /// The entry in `file`; nil when it cannot be read or holds none.
  public static func read(_ file: URL) -> DesktopEntryFile? {
    guard case .success(let bytes) = RegularFile.read(file.path, limit: 1 << 16) else { return nil }
    return parse(String(decoding: bytes, as: UTF8.self))
  }
}
