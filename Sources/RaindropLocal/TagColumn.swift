import FoundationEssentials

/// A bookmark's tags as the store keeps them: a JSON array of strings. Written and read here by hand, since
/// `JSONEncoder` and `JSONDecoder` were a fifth of a save (one to write the row, one to read it back);
/// text this writer did not make (escapes, spaces) is read by `JSONDecoder`.
enum TagColumn {
  static func encode(_ tags: [String]) -> String {
    var text = "["
    for (index, tag) in tags.enumerated() {
      if index > 0 { text += "," }
      text += "\""
      for scalar in tag.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\t": text += "\\t"
        case "\r": text += "\\r"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: text.unicodeScalars.append(scalar)
        }
      }
      text += "\""
    }
    return text + "]"
  }

  static func decode(_ text: String?) -> [String] {
    guard let text, text != "[]" else { return [] }
    var copy = text
    if let tags = copy.withUTF8(plain) { return tags }
    guard let tags = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
    return tags
  }

  /// `["a","b"]` with no backslash, so no quote inside a tag; nil for anything else.
  private static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
    let (quote, comma) = (UInt8(ascii: "\""), UInt8(ascii: ","))
    guard bytes.count >= 4, bytes[0] == UInt8(ascii: "["), bytes[bytes.count - 1] == UInt8(ascii: "]"),
      !bytes.contains(UInt8(ascii: "\\"))
    else { return nil }
    var tags: [String] = []
    let end = bytes.count - 1
    var index = 1
    while index < end {
      guard bytes[index] == quote else { return nil }
      var close = index + 1
      while close < end && bytes[close] != quote { close += 1 }
      guard close < end else { return nil }
      tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close]), as: UTF8.self))
      index = close + 1
      if index < end {
        guard bytes[index] == comma, index + 1 < end else { return nil }
        index += 1
      }
    }
    return tags
  }
}
