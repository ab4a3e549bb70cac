import FlowIntents

/// Which item `get-item` takes.
enum ItemSpecifier: String, AppEnum {
  case first, last, random, index

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Item"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .first: "First Item", .last: "Last Item", .random: "Random Item", .index: "Item at Index",
  ]
}
