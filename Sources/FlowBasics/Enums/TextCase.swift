import FlowIntents

/// What `change-case` writes.
enum TextCase: String, AppEnum {
  case uppercase, lowercase, capitalizeEveryWord, sentence

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Case"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .uppercase: "UPPERCASE", .lowercase: "Lowercase", .capitalizeEveryWord: "Capitalize Every Word",
    .sentence: "Sentence case",
  ]
}
