import FlowIntents

/// What `read-file` makes of a file's text.
enum ReadFormat: String, AppEnum {
  case text, json

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Read As"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .text: "Text", .json: "JSON (a dictionary or a list)",
  ]
}
