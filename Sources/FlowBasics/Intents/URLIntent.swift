import FlowIntents
import FoundationEssentials

/// Makes a URL from text, refusing text that is not one.
struct URLIntent: AppIntent {
  static let title: LocalizedStringResource = "URL"
  static let description = IntentDescription(
    "Pass on a URL: text such as 'https://example.com/a' or 'example.com/a' (read as https); anything else stops the step."
  )

  @Parameter(title: "URL", primary: true)
  var url: URL

  static var parameterSummary: some ParameterSummary {
    Summary("URL \(\.$url)")
  }

  func perform() async throws -> some ReturnsValue<URL> {
    .result(value: url)
  }
}
