import FlowIntents

/// How `filter` compares each item with the value (the workflow conditions' words).
enum FilterComparison: String, AppEnum {
  case equals, notEquals, contains, doesNotContain, startsWith, endsWith, greaterThan, lessThan, matches
  case isEmpty, isNotEmpty

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Comparison"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .equals: "Is", .notEquals: "Is Not", .contains: "Contains", .doesNotContain: "Does Not Contain",
    .startsWith: "Starts With", .endsWith: "Ends With", .greaterThan: "Is Greater Than", .lessThan: "Is Less Than",
    .matches: "Matches", .isEmpty: "Is Empty", .isNotEmpty: "Is Not Empty",
  ]

  /// Whether the comparison needs a value to compare with.
  var needsValue: Bool { self != .isEmpty && self != .isNotEmpty }
}
