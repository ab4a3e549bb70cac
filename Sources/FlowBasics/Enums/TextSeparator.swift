import FlowIntents

/// What `split-text` splits at and `combine-text` puts between items.
enum TextSeparator: String, AppEnum {
  case newLines, spaces, commas, everyCharacter, nothing, custom

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Separator"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .newLines: "New Lines", .spaces: "Spaces", .commas: "Commas", .everyCharacter: "Every Character",
    .nothing: "Nothing", .custom: "Custom",
  ]

  /// The separator text; nil for every character, `custom` for a custom one.
  func text(custom: String?) throws -> String? {
    switch self {
    case .newLines: return "\n"
    case .spaces: return " "
    case .commas: return ","
    case .everyCharacter, .nothing: return nil
    case .custom:
      guard let custom, !custom.isEmpty else {
        throw AppIntentError.failed(
          "'separator: custom' needs a 'custom-separator'", help: "add 'custom-separator: \" | \"', for example")
      }
      return custom
    }
  }
}
