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

extension IfExists {
  /// Whether a step with these values writes over a file that is there (`if-exists: replace`): what it
  /// held is gone, so the step is destructive and asks first (issue 28).
  static func replaces(_ values: [String: FlowValue]) -> Bool {
    values["if-exists"].flatMap { try? IfExists(flowValue: $0) } == .replace
  }

  /// The side effect of a step that writes where its `if-exists` says.
  static func sideEffect(_ values: [String: FlowValue]) -> SideEffect { replaces(values) ? .destructive : .changes }

  /// What a step that writes to `parameter` does there, as its `if-exists` says: writes, or replaces.
  static func destination(_ parameter: String, _ values: [String: FlowValue]) -> MachineAccess {
    MachineAccess(replaces(values) ? .replacesFiles : .writesFiles, parameter: parameter)
  }
}
