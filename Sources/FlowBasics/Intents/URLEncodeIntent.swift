import FlowDiagnostics
import FlowIntents

/// Percent-encodes a text so that it can go into a URL as one path segment or query value.
struct URLEncodeIntent: AppIntent {
  static let title: LocalizedStringResource = "URL Encode"
  static let description = IntentDescription(
    "Percent-encode a text's UTF-8 bytes, all but letters, digits and '-._~' (RFC 3986), so it fits in a URL as one query value or path segment."
  )

  @Parameter(title: "Text", primary: true)
  var text: String

  static var parameterSummary: some ParameterSummary {
    Summary("URL-encode \(\.$text)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + Hex.encode([byte], uppercase: true)
      }
    }
    return .result(value: out)
  }
}
