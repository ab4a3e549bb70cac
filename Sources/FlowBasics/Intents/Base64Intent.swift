import FlowIntents
import FoundationEssentials

/// Encodes a text's UTF-8 bytes as base64, or decodes base64 back to text.
struct Base64Intent: AppIntent {
  static let title: LocalizedStringResource = "Base64 Encode"
  static let description = IntentDescription(
    "Encode a text as base64 (RFC 4648, with padding), or decode base64 into text; line breaks in the input are ignored when decoding."
  )

  @Parameter(title: "Input", primary: true)
  var input: String

  @Parameter(title: "Mode", default: .encode)
  var mode: Base64Mode

  static var parameterSummary: some ParameterSummary {
    Summary("Base64 \(\.$mode) \(\.$input)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    switch mode {
    case .encode:
      return .result(value: Data(input.utf8).base64EncodedString())
    case .decode:
      let compact = input.filter { !$0.isWhitespace && !$0.isNewline }
      guard let data = Data(base64Encoded: compact) else {
        throw AppIntentError.failed(
          "the input is not base64", help: "base64 uses A-Z, a-z, 0-9, '+' and '/', padded with '=' to a multiple of 4")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw AppIntentError.failed("the decoded bytes are not UTF-8 text")
      }
      return .result(value: text)
    }
  }
}
