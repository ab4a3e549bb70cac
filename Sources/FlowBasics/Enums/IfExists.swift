import FlowIntents

/// What a file action does when its destination exists.
package enum IfExists: String, AppEnum {
  case fail, replace, append
  case keepBoth = "keep-both"

  package static let typeDisplayRepresentation: TypeDisplayRepresentation = "If Exists"
  package static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .fail: "Fail (stop the run)", .replace: "Replace it", .append: "Append to it",
    .keepBoth: "Keep both (number the new one)",
  ]
}
