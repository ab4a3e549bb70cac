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
    func hexValue(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
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
