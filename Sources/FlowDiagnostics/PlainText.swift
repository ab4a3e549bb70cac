import Glibc

/// The few text operations flow took from swift-corelibs-foundation's `NSString` bridge, in plain Swift, so
/// that the executable links FoundationEssentials only (Performance.md, "The binary without
/// swift-corelibs-foundation"). Each keeps the result of the Foundation call it replaces; the tests in
/// FlowDiagnosticsTests compare them with Foundation's on the same inputs.
extension StringProtocol {
  /// Foundation's `trimmingCharacters(in: .whitespaces)`: ``PlainText/isSpace(_:)``, trimmed scalar by scalar
  /// from both ends. Line breaks stay.
  public func trimmingWhitespace() -> String { trimmingScalars(where: PlainText.isSpace) }

  /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`: ``PlainText/isSpace(_:)`` and
  /// ``PlainText/isNewline(_:)``.
  public func trimmingWhitespaceAndNewlines() -> String {
    trimmingScalars(where: { PlainText.isSpace($0) || PlainText.isNewline($0) })
  }

  /// Foundation's `trimmingCharacters(in:)` for any set of scalars, given as a test of one.
  public func trimmingScalars(where shouldTrim: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !shouldTrim($0) }) else { return "" }
    guard let last = scalars.lastIndex(where: { !shouldTrim($0) }) else { return "" }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars[first...last])
    return String(kept)
  }

  /// Every occurrence of `target` replaced by `replacement`, left to right and not overlapping, comparing
  /// Unicode scalars literally (Foundation's `replacingOccurrences(of:with:)` on the ASCII targets flow uses;
  /// unlike the standard library's `replacing(_:with:)`, the `\n` of a `\r\n` is found). An empty `target`
  /// changes nothing.
  public func replacingEvery(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
    let text = String(self)
    let sought = Array(target.utf8)
    guard !sought.isEmpty, text.utf8.count >= sought.count else { return text }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var start = 0
    var index = 0
    let last = bytes.count - sought.count
    // A literal search over valid UTF-8 can only match on scalar boundaries: the target is valid UTF-8 too.
    while index <= last {
      if bytes[index] == sought[0] && bytes[index..<index + sought.count].elementsEqual(sought) {
        if out.isEmpty { out.reserveCapacity(bytes.count) }
        out.append(contentsOf: bytes[start..<index])
        out.append(contentsOf: replacement.utf8)
        index += sought.count
        start = index
      } else {
        index += 1
      }
    }
    guard start > 0 else { return text }
    out.append(contentsOf: bytes[start...])
    return String(decoding: out, as: UTF8.self)
  }
}

extension StringProtocol {
  /// Foundation's `addingPercentEncoding(withAllowedCharacters:)` for a set of ASCII characters: every UTF-8
  /// byte `keep` refuses becomes `%XX` (upper-case hex).
  public func addingPercentEscapes(keeping keep: (UInt8) -> Bool) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count)
    for byte in utf8 {
      if keep(byte) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Foundation's `removingPercentEncoding`: every `%XX` decoded; nil when a `%` is not followed by two hex
  /// digits or the bytes decoded are not UTF-8.
  public var removingPercentEscapes: String? {
    let bytes = Array(utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "%") else {
        out.append(bytes[index])
        index += 1
        continue
      }
      guard index + 2 < bytes.count, let high = Hex.value(ofDigit: bytes[index + 1]),
        let low = Hex.value(ofDigit: bytes[index + 2])
      else {
        return nil
      }
      out.append(high << 4 | low)
      index += 3
    }
    return String(validating: out, as: UTF8.self)
  }
}

/// The scalar sets ``StringProtocol/trimmingWhitespace()`` and its kin test.
public enum PlainText {
  /// Foundation's `CharacterSet.whitespaces`: the space separators (Zs), tab, and U+200B (zero-width space),
  /// which CoreFoundation's table still holds (checked over every scalar in FlowDiagnosticsTests).
  public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
  }

  /// Foundation's `CharacterSet.newlines`: U+000A–000D, U+0085, U+2028, U+2029.
  public static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// RFC 3986's unreserved characters: ASCII letters and digits, `-`, `.`, `_` and `~`.
  public static func isUnreserved(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "~")
  }

  /// ASCII letters and digits.
  public static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Foundation's `CharacterSet.urlQueryAllowed`: the ASCII letters and digits and `!$&'()*+,-./:;=?@_~`.
  public static func isQueryAllowed(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || "!$&'()*+,-./:;=?@_~".utf8.contains(byte)
  }
}

extension PlainText {
  /// Foundation's `String(format:)` for the numeric conversions flow uses (`%.1f`, `%d`, `%02d`), which
  /// CoreFoundation hands to the C library's printf as this does.
  public static func format(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
      var buffer = [CChar](repeating: 0, count: 128)
      let count = Int(vsnprintf(&buffer, buffer.count, format, list))
      guard count >= buffer.count else { return String(cString: buffer) }
      return withVaList(arguments) { again in
        var larger = [CChar](repeating: 0, count: count + 1)
        _ = vsnprintf(&larger, larger.count, format, again)
        return String(cString: larger)
      }
    }
  }
}

extension PlainText {
  /// `text` made exactly `width` characters long for a column: cut, or filled with spaces (Foundation's
  /// `padding(toLength:withPad:startingAt:)` with a space, counting characters rather than UTF-16 units).
  public static func padded(_ text: String, to width: Int) -> String {
    let count = text.count
    if count >= width { return String(text.prefix(width)) }
    return text + String(repeating: " ", count: width - count)
  }
}
