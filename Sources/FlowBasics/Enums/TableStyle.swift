import FlowIntents

/// How `make-table` lays a table out.
enum TableStyle: String, AppEnum {
  case markdown, plain

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Style"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .markdown: "Markdown (a pipe table, as GitHub shows it)", .plain: "Plain (columns lined up with spaces)",
  ]
}
