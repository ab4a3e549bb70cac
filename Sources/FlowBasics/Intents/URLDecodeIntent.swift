import FlowDiagnostics
import FlowIntents

/// Undoes percent-encoding.
struct URLDecodeIntent: AppIntent {
  static let title: LocalizedStringResource = "URL Decode"
  static let description = IntentDescription(
    "Undo percent-encoding ('%20' → ' '); '+' stays '+' unless 'plus-as-space' is on, as in form data and query strings."
  )

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "Plus as Space", default: false)
  var plusAsSpace: Bool

  static var parameterSummary: some ParameterSummary {
    Summary("URL-decode \(\.$text)") {
      \.$plusAsSpace
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let high = Hex.value(ofDigit: bytes[index + 1]),
          let low = Hex.value(ofDigit: bytes[index + 2])
        else {
          let found = String(decoding: bytes[index..<min(index + 3, bytes.count)], as: UTF8.self)
          throw AppIntentError.failed(
            "'\(found)' is not a percent-escape",
            help: "a '%' is followed by two hexadecimal digits; a '%' itself is '%25'")
        }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    guard let decoded = String(validating: out, as: UTF8.self) else {
      throw AppIntentError.failed("the decoded bytes are not UTF-8 text")
    }
    return .result(value: decoded)
  }
}
