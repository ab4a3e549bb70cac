import FlowIntents

/// Counts the items of a list, or the characters, words or lines of a text.
struct CountIntent: AppIntent {
  static let title: LocalizedStringResource = "Count"
  static let description = IntentDescription("Count the items of a list, or the characters, words or lines of a text.")

  @Parameter(title: "Input", primary: true)
  var input: FlowValue

  @Parameter(title: "Count", default: .items)
  var unit: CountUnit

  static var parameterSummary: some ParameterSummary {
    Summary("Count \(\.$unit) in \(\.$input)")
  }

  func perform() async throws -> some ReturnsValue<Int> {
    switch unit {
    case .items:
      switch input {
      case .list(let items): return .result(value: items.count)
      case .dictionary(let dictionary): return .result(value: dictionary.count)
      case .nothing: return .result(value: 0)
      default: return .result(value: 1)
      }
    case .characters:
      return .result(value: input.text.count)
    case .words:
      return .result(value: input.text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).count)
    case .lines:
      let text = input.text
      return .result(value: text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count)
    }
  }
}
