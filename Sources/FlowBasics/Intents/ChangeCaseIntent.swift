import FlowIntents

/// Changes the case of a text.
struct ChangeCaseIntent: AppIntent {
  static let title: LocalizedStringResource = "Change Case"
  static let description = IntentDescription(
    "Write a text in upper case, lower case, with every word capitalized, or as a sentence.")

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "Case", default: .uppercase)
  var to: TextCase

  static var parameterSummary: some ParameterSummary {
    Summary("Change \(\.$text) to \(\.$to)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    switch to {
    case .uppercase: return .result(value: text.uppercased())
    case .lowercase: return .result(value: text.lowercased())
    case .capitalizeEveryWord:
      // Only each word's first letter changes: 'iPhone' and 'NASA' keep theirs, as in Shortcuts.
      var result = ""
      var atWordStart = true
      for character in text {
        result += atWordStart ? character.uppercased() : String(character)
        atWordStart = character.isWhitespace
      }
      return .result(value: result)
    case .sentence:
      let lowered = text.lowercased()
      guard let first = lowered.firstIndex(where: \.isLetter) else { return .result(value: lowered) }
      return .result(value: lowered[..<first] + lowered[first].uppercased() + lowered[lowered.index(after: first)...])
    }
  }
}
