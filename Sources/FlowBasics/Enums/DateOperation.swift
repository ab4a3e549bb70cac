import FlowIntents

/// Which way `adjust-date` moves a date.
enum DateOperation: String, AppEnum {
  case add, subtract

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Operation"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [.add: "Add", .subtract: "Subtract"]
}
