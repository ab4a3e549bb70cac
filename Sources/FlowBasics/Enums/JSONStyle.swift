import FlowIntents

/// How `format-json` lays JSON out.
enum JSONStyle: String, AppEnum {
  case pretty, compact

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Style"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .pretty: "Pretty (indented)", .compact: "Compact (one line)",
  ]
}
