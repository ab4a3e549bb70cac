import FlowDiagnostics
import FlowIntents
import FoundationEssentials

/// Takes one part of a URL: its scheme, host, port, path, query, fragment, or a query parameter.
struct GetURLComponentIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Component of URL"
  static let description = IntentDescription(
    "Take a part of a URL: scheme, host, port (a number), path, query, fragment, or a query parameter by name (decoded, '+' read as a space). A part the URL lacks is empty text; a port or parameter it lacks is nothing."
  )

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Parameter(title: "Component", default: .host)
  var component: URLComponentKind

  @Parameter(title: "Name", description: "The query parameter's name, with 'component: query-parameter'.")
  var name: String?

  static var parameterSummary: some ParameterSummary {
    Summary("Get \(\.$component) of \(\.$url)") {
      \.$name
    }
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
    switch component {
    case .scheme: return .result(value: .text(url.scheme ?? ""))
    case .host: return .result(value: .text(url.host ?? ""))
    case .port: return .result(value: url.port.map { .number(Double($0)) } ?? .nothing)
    case .path: return .result(value: .text(parts?.percentEncodedPath.removingPercentEscapes ?? url.path))
    case .query: return .result(value: .text(parts?.percentEncodedQuery ?? ""))
    case .fragment: return .result(value: .text(parts?.fragment ?? ""))
    case .queryParameter:
      guard let name, !name.isEmpty else {
        throw AppIntentError.failed(
          "'component: query-parameter' needs a 'name'", help: "add 'name: id' for the value of '?id=…'")
      }
      return .result(
        value: Self.queryParameter(name, in: parts?.percentEncodedQuery ?? "").map(FlowValue.text) ?? .nothing)
    }
  }

  /// The first value of `name` in a query, decoded as browsers decode forms (WHATWG URLSearchParams):
  /// '+' is a space, then percent-escapes are undone.
  static func queryParameter(_ name: String, in query: String) -> String? {
    func decode(_ part: Substring) -> String {
      let spaced = part.replacingEvery("+", with: " ")
      return spaced.removingPercentEscapes ?? spaced
    }
    for pair in query.split(separator: "&") {
      let key = pair.prefix { $0 != "=" }
      guard decode(key) == name else { continue }
      return pair.count > key.count ? decode(pair.dropFirst(key.count + 1)) : ""
    }
    return nil
  }
}
