import FlowIntents

/// What a file action does when its destination exists.
public enum IfExists: String, AppEnum {
  case fail, replace, append
  case keepBoth = "keep-both"

  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "If Exists"
  public static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .fail: "Fail (stop the run)", .replace: "Replace it", .append: "Append to it",
    .keepBoth: "Keep both (number the new one)",
  ]
}
