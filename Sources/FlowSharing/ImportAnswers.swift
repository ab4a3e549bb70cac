import FlowDiagnostics
import FlowIntents
import FlowYAML

/// Writes the answers to a workflow's import questions into its text as the inputs' defaults (issue 9),
/// editing only the `default:` of each answered input, so that comments and formatting survive.
public enum ImportAnswers {
  /// An answer as YAML for an input of `type`: numbers and booleans plain when they read back as such,
  /// a list from comma-separated items (each as its element type says), anything else a quoted text.
  public static func yaml(for answer: String, type: ValueType) -> String {
    let trimmed = answer.trimmingWhitespace()
    switch type {
    case .number, .integer:
      switch ScalarValue(plain: trimmed) {
      case .int, .double: return trimmed
      default: return YAMLText.quoted(answer)
      }
    case .boolean:
      return trimmed == "true" || trimmed == "false" ? trimmed : YAMLText.quoted(answer)
    case .list(let element):
      let items = trimmed.split(separator: ",").map {
        yaml(for: $0.trimmingWhitespace(), type: element)
      }
      return "[" + items.joined(separator: ", ") + "]"
    default:
      return YAMLText.quoted(answer)
    }
  }

  /// `bytes` with each input of `answers` (name → YAML text) given that default: an existing `default:`
  /// is replaced where it stood, a missing one is added after the input's last key.
  public static func apply(_ answers: [String: String], to bytes: [UInt8], path: String) -> Result<
    [UInt8], DiagnosticError
  > {
    guard !answers.isEmpty else { return .success(bytes) }
    let file = SourceFile(path: path, bytes: bytes)
    guard let inputs = YAMLDocument.load(file).root?.mapping?["input"]?.value.mapping else {
      return .failure(DiagnosticError(Diagnostic(.error, .invalidAnswer, "the workflow has no inputs", file: path)))
    }
    var editor = TextEditor(bytes)
    for (name, value) in answers.sorted(by: { $0.key < $1.key }) {
      guard let declaration = inputs[name]?.value.mapping else {
        return .failure(
          DiagnosticError(Diagnostic(.error, .invalidAnswer, "input '\(name)' cannot take a default here", file: path)))
      }
      if let existing = declaration["default"] {
        if declaration.isFlow || existing.value.scalar != nil || isFlowCollection(existing.value) {
          let span = existing.value.span
          editor.replace(editor.offset(span.start)..<editor.offset(span.end), with: value)
        } else {
          // A block list or mapping as the default: its lines go, and one line takes their place.
          editor.remove(existing, in: declaration)
          let indent = String(repeating: " ", count: existing.key.span.start.column - 1)
          let at = editor.lineStart(existing.key.span.start.line)
          editor.replace(at..<at, with: "\(indent)default: \(value)\n")
        }
      } else {
        editor.add(key: "default", value: value, to: declaration)
      }
    }
    return .success(editor.applied())
  }

  private static func isFlowCollection(_ node: YAMLNode) -> Bool {
    node.sequence?.isFlow == true || node.mapping?.isFlow == true
  }
}
