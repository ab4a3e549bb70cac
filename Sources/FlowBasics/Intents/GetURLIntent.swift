import FlowDiagnostics
import FlowHTTP
import FlowIntents
import FlowModel
import FoundationEssentials

/// Sends an HTTP request and passes on the answer (Shortcuts' Get Contents of URL): a dictionary or a
/// list for JSON, text otherwise.
struct GetURLIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Contents of URL"
  static let description = IntentDescription(
    "Send a GET, POST, PUT, PATCH or DELETE request and pass on the answer: a dictionary or list for JSON, text otherwise; an error status stops the step."
  )
  // The method decides: GET reads, DELETE deletes, the others change something on the server; see
  // sideEffect(for:).
  static let sideEffect = SideEffect.destructive
  static let sideEffectParameters: Set<String> = ["method"]
  static let networkAccess = NetworkAccess.hostOfParameter("url")
  // What goes in a body or a header leaves the machine as surely as what goes in the URL.
  static let machineAccess = [
    MachineAccess(.sendsData, parameter: "json"), MachineAccess(.sendsData, parameter: "body"),
    MachineAccess(.sendsData, parameter: "headers"),
  ]

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Parameter(title: "Method", default: .get)
  var method: HTTPMethod

  @Parameter(title: "Headers")
  var headers: FlowDictionary?

  @Parameter(title: "JSON Body", description: "A value sent as JSON, with 'Content-Type: application/json'.")
  var json: FlowValue?

  @Parameter(title: "Text Body", description: "Text sent as it is; give 'json' or 'body', not both.")
  var body: String?

  @Parameter(title: "Timeout", default: .seconds(30))
  var timeout: Duration

  @Dependency var transport: any HTTPTransport

  static var parameterSummary: some ParameterSummary {
    Summary("Get contents of \(\.$url)") {
      \.$method
      \.$headers
      \.$json
      \.$body
      \.$timeout
    }
  }

  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    switch values["method"].flatMap({ try? HTTPMethod(flowValue: $0) }) ?? .get {
    case .get: .readOnly
    case .delete: .destructive
    case .post, .put, .patch: .changes
    }
  }

  /// A DELETE is what a person is asked about, not fetching contents.
  static func confirmationQuestion(for values: [String: FlowValue]) -> String? {
    guard sideEffect(for: values) == .destructive, let url = values["url"] else { return nil }
    return "Send a DELETE request to \(ConfirmationWords.things(url))?"
  }

  /// A link written out is checked before the run: only the web (`file:` would read the disk).
  static func literalProblems(_ literals: [String: FlowValue]) -> [String: CoercionError] {
    guard case .text(let text)? = literals["url"], let scheme = URLScheme.of(text), !["http", "https"].contains(scheme)
    else { return [:] }
    return [
      "url": CoercionError(
        message: "'get-url' fetches only http and https URLs, not a '\(scheme):' link",
        help: "read a file with 'read-file'")
    ]
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let verb = method.displayName
    // Only the web: libcurl would also read file:// URLs, which a shared workflow must not reach.
    guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
      throw AppIntentError.failed(
        "'get-url' fetches only http and https URLs, not '\(url.absoluteString)'")
    }
    guard timeout > .zero else { throw AppIntentError.failed("'timeout' must be more than 0s") }
    if json != nil, body != nil {
      throw AppIntentError.failed("give either 'json' or 'body', not both")
    }
    var request = HTTPRequest(method: verb, url: url, timeout: timeout)
    for (name, value) in headers ?? [:] { request.headers[name] = value.text }
    if let json {
      request.body = Data(JSON.encode(json).utf8)
      if !request.headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
        request.headers["Content-Type"] = "application/json"
      }
    } else if let body {
      request.body = Data(body.utf8)
    }
    let response: HTTPResponse
    do {
      response = try await transport.send(request)
    } catch {
      throw AppIntentError.failed("\(verb) \(url.absoluteString) failed: \(Self.describe(error))")
    }
    let text = String(decoding: response.body, as: UTF8.self)
    guard response.status < 400 else {
      let excerpt = text.count > 200 ? String(text.prefix(200)) + "…" : text
      throw AppIntentError.failed(
        "\(verb) \(url.absoluteString) answered \(response.status) \(Self.reason(response.status))",
        help: excerpt.isEmpty ? nil : "the answer was: \(excerpt.replacingEvery("\n", with: " "))")
    }
    let contentType = response[header: "content-type"]?.lowercased() ?? ""
    let trimmed = text.trimmingWhitespaceAndNewlines()
    if contentType.contains("json") || trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
      do {
        return .result(value: try JSON.parse(text))
      } catch  where contentType.contains("json") {
        throw AppIntentError.failed("\(url.absoluteString) sent invalid JSON: \(error.message)")
      } catch {
        // Text that merely starts with a bracket is text.
      }
    }
    return .result(value: .text(text))
  }

  /// Why a request got no answer, with durations written as workflows write them.
  static func describe(_ error: HTTPTransportError) -> String {
    if case .timedOut(let after) = error { return "no answer within \(DurationParsing.format(after))" }
    return error.description
  }

  /// The reason phrases of the statuses people meet.
  static func reason(_ status: Int) -> String {
    let reasons = [
      400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
      408: "Request Timeout", 409: "Conflict", 410: "Gone", 422: "Unprocessable Content", 429: "Too Many Requests",
      500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
      504: "Gateway Timeout",
    ]
    return reasons[status] ?? (status < 500 ? "Client Error" : "Server Error")
  }
}
