import FlowIntents

/// The direction `sort` puts items in.
enum SortOrder: String, AppEnum {
  case ascending, descending

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Order"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .ascending: "Ascending (A to Z, 1 to 9)", .descending: "Descending (Z to A, 9 to 1)",
  ]
}
