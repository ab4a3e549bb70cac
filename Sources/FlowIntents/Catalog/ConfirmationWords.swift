import FlowDiagnostics

/// The question a step asks before it acts, in words a person reads — `Move 2 files to the Trash?`, not
/// the raw parameters (`Delete /home/ada/a.pdf, /home/ada/b.pdf (permanently: false)?`). Built once, where
/// the ``ConfirmationRequest`` is made, so the terminal's `[y/N]`, a desktop dialog and an MCP client's
/// elicitation all read the same words.
///
/// In order: the question the intent declares for these values
/// (``AppIntent/confirmationQuestion(for:)``); for files it moves to the Trash or deletes, what its
/// effects say of them, counted; else its summary's sentence with each value named
/// (`Delete 'Swift.org'?`), without the trailing details.
public enum ConfirmationWords {
  public static func question<I: AppIntent>(
    _ intent: I.Type, values: [String: FlowValue], sentence: SummaryLayout
  ) -> String {
    if let declared = I.confirmationQuestion(for: values) { return declared }
    for access in I.machineAccess(for: values) {
      guard let key = access.parameter, let value = values[key] else { continue }
      switch access.kind {
      case .deletesFiles: return "Delete \(things(value)) for good?"
      case .trashesFiles: return "Move \(things(value)) to the Trash?"
      default: continue
      }
    }
    return sentence.render(values: values.mapValues(things), details: false) + "?"
  }

  /// A value as a question names it: a list counted by what it holds (`2 files`, `3 bookmarks`), one
  /// item or entity by its title in quotes (`'report.pdf'`), text quoted, anything else as text.
  public static func things(_ value: FlowValue) -> String {
    switch value {
    case .list(let items) where items.count == 1:
      return things(items[0])
    case .list(let items):
      let names = Set(
        items.map { item -> String in if case .entity(let entity) = item { entity.typeName } else { "" } })
      guard names.count == 1, let name = names.first, !name.isEmpty else { return Count.of(items.count, "item") }
      return Count.of(items.count, noun(name))
    case .entity(let entity):
      return "'\(short(entity.title))'"
    case .text, .url:
      return "'\(short(value.text))'"
    default:
      return short(value.text)
    }
  }

  /// `File` → `file`, `Shell Result` → `shell result`: a type's name as a noun in a sentence.
  static func noun(_ typeName: String) -> String { typeName.lowercased() }

  /// A long value cut short: a question is one line.
  static func short(_ text: String) -> String {
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return line.count > 60 || line.count < text.count ? String(line.prefix(59)) + "…" : line
  }
}
