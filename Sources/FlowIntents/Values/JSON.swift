import FlowDiagnostics
import FoundationEssentials

/// JSON to and from ``FlowValue``, keeping object keys in order and `true` apart from `1`.
///
/// Hand-written rather than `JSONSerialization`, which on Linux loses key order and turns booleans into
/// numbers; both matter when a `get-url` response is shown or passed on.
public enum JSON {
  /// Why some text is not JSON: "expected ',' or '}' at offset 12".
  public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// Parses a JSON document; nesting is bounded so hostile input cannot exhaust the stack.
  public static func parse(_ text: String) throws(ParseError) -> FlowValue {
    var parser = Parser(bytes: Array(text.utf8))
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  /// Writes a value as compact JSON. Dates and URLs become strings, entities objects of their properties
  /// (with `id` and `title` first), nothing `null`.
  public static func encode(_ value: FlowValue, pretty: Bool = false) -> String {
    var out = ""
    write(value, into: &out, pretty: pretty, indent: 0)
    return out
  }

  private static func write(_ value: FlowValue, into out: inout String, pretty: Bool, indent: Int) {
    let newline = pretty ? "\n" : ""
    let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
    let closePad = pretty ? String(repeating: "  ", count: indent) : ""
    switch value {
    case .text(let text): writeString(text, into: &out)
    case .number(let number): out += number.isFinite ? FlowValue.formatNumber(number) : "null"
    case .boolean(let bool): out += bool ? "true" : "false"
    case .nothing: out += "null"
    case .date, .url: writeString(Coercion.text(of: value), into: &out)
    case .list(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "[" + newline
      for (index, item) in items.enumerated() {
        out += pad
        write(item, into: &out, pretty: pretty, indent: indent + 1)
        out += (index < items.count - 1 ? "," : "") + newline
      }
      out += closePad + "]"
    case .dictionary(let dictionary):
      writeObject(dictionary.entries, into: &out, pretty: pretty, indent: indent)
    case .entity(let entity):
      var entries: [(key: String, value: FlowValue)] = [("id", entity.id), ("title", .text(entity.title))]
      entries += entity.properties.entries.filter { $0.key != "id" && $0.key != "title" }
      writeObject(entries, into: &out, pretty: pretty, indent: indent)
    }
  }

  private static func writeObject(
    _ entries: [(key: String, value: FlowValue)], into out: inout String, pretty: Bool, indent: Int
  ) {
    if entries.isEmpty {
      out += "{}"
      return
    }
    let newline = pretty ? "\n" : ""
    let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
    out += "{" + newline
    for (index, entry) in entries.enumerated() {
      out += pad
      writeString(entry.key, into: &out)
      out += pretty ? ": " : ":"
      write(entry.value, into: &out, pretty: pretty, indent: indent + 1)
      out += (index < entries.count - 1 ? "," : "") + newline
    }
    out += (pretty ? String(repeating: "  ", count: indent) : "") + "}"
  }

  private static func writeString(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let s where s.value < 0x20: out += "\\u00" + Hex.encode([UInt8(s.value)])
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0
    static let maximumDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> ParseError {
      ParseError(message: "\(message) at offset \(index)")
    }

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(ParseError) -> FlowValue {
      guard depth < Self.maximumDepth else { throw error("JSON nested too deeply") }
      guard index < bytes.count else { throw error("unexpected end of JSON") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .text(try string())
      case UInt8(ascii: "t"): return try literal("true", .boolean(true))
      case UInt8(ascii: "f"): return try literal("false", .boolean(false))
      case UInt8(ascii: "n"): return try literal("null", .nothing)
      default: return try number()
      }
    }

    mutating func literal(_ word: String, _ value: FlowValue) throws(ParseError) -> FlowValue {
      let utf8 = Array(word.utf8)
      guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
        throw error("unexpected character")
      }
      index += utf8.count
      return value
    }

    mutating func number() throws(ParseError) -> FlowValue {
      let start = index
      while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
      guard index > start, let text = String(bytes: bytes[start..<index], encoding: .utf8),
        let number = Double(text)
      else {
        index = start
        throw error("unexpected character")
      }
      // `1e999` reads as infinity, which JSON cannot write back (it would become null).
      guard number.isFinite else {
        index = start
        throw error("the number \(text) is too large")
      }
      return .number(number)
    }

    mutating func string() throws(ParseError) -> String {
      index += 1  // opening quote
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush() {
        if !raw.isEmpty {
          scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
          raw.removeAll()
        }
      }
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          index += 1
          flush()
          return String(scalars)
        }
        if byte == UInt8(ascii: "\\") {
          flush()
          index += 1
          guard index < bytes.count else { break }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "b"): scalars.append("\u{08}")
          case UInt8(ascii: "f"): scalars.append("\u{0C}")
          case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            {
              index += 2
              let low = try hex4()
              if (0xDC00..<0xE000).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
              } else {
                // A high half whose next escape is no low half stands alone (U+FFFD), and that escape
                // is read as itself: combined, the arithmetic overflowed.
                scalars.append("\u{FFFD}")
                code = low
              }
            }
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
          default: scalars.append(Unicode.Scalar(escape))
          }
          continue
        }
        raw.append(byte)
        index += 1
      }
      throw error("unterminated string")
    }

    mutating func hex4() throws(ParseError) -> UInt32 {
      guard index + 4 <= bytes.count, let text = String(bytes: bytes[index..<index + 4], encoding: .utf8),
        let code = UInt32(text, radix: 16)
      else { throw error("invalid \\u escape") }
      index += 4
      return code
    }

    mutating func array(depth: Int) throws(ParseError) -> FlowValue {
      index += 1
      var items: [FlowValue] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .list(items)
      }
      while true {
        skipWhitespace()
        items.append(try value(depth: depth + 1))
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
        index += 1
        return .list(items)
      }
    }

    mutating func object(depth: Int) throws(ParseError) -> FlowValue {
      index += 1
      // Collected, then made a dictionary at once: setting each key searched those before it.
      var entries: [(key: String, value: FlowValue)] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .dictionary(FlowDictionary())
      }
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
        index += 1
        skipWhitespace()
        entries.append((key, try value(depth: depth + 1)))
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
        index += 1
        return .dictionary(FlowDictionary(entries))
      }
    }
  }
}
