import FlowIntents

/// What `count` counts.
enum CountUnit: String, AppEnum {
  case items, characters, words, lines

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Unit"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .items: "Items", .characters: "Characters", .words: "Words", .lines: "Lines",
  ]
}
