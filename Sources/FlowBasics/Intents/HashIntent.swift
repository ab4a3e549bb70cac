import FlowDiagnostics
import FlowIntents

/// The digest of a text's UTF-8 bytes, in hexadecimal.
struct HashIntent: AppIntent {
  static let title: LocalizedStringResource = "Generate Hash"
  static let description = IntentDescription(
    "The MD5, SHA-1, SHA-256 or SHA-512 digest of a text's UTF-8 bytes, as lowercase hexadecimal (as 'sha256sum' prints it)."
  )

  @Parameter(title: "Input", primary: true)
  var input: String

  @Parameter(title: "Algorithm", default: .sha256)
  var algorithm: HashAlgorithm

  static var parameterSummary: some ParameterSummary {
    Summary("\(\.$algorithm) hash of \(\.$input)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    let bytes = Array(input.utf8)
    let digest =
      switch algorithm {
      case .md5: Digest.md5(bytes)
      case .sha1: Digest.sha1(bytes)
      case .sha256: Digest.sha256(bytes)
      case .sha512: Digest.sha512(bytes)
      }
    return .result(value: Hex.encode(digest))
  }
}
