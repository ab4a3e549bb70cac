import FlowIntents

/// The parts of a URL `get-url-component` takes.
enum URLComponentKind: String, AppEnum {
  case scheme, host, port, path, query, fragment, queryParameter

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Component"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .scheme: "Scheme", .host: "Host", .port: "Port", .path: "Path", .query: "Query", .fragment: "Fragment",
    .queryParameter: "Query Parameter",
  ]
}
