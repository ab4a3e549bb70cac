import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime
import FlowSession
import FoundationEssentials

/// The values `--input NAME=VALUE` gives, typed later by the workflow's declarations.
///
/// For a list input each `--input` adds one item, in order (`--input tags=a --input tags=b` is `[a, b]`),
/// and the value is taken literally: `tags=a,b` is the one item `a,b`, because commas occur in real
/// values (titles, searches) and splitting them would be a surprise no flag could undo. For any other
/// input the last `--input` wins, as with most tools' repeated options, so a script can override a
/// value it set earlier.
enum InputAssignments {
  static func values(_ assignments: [String], for workflow: Workflow, registry: IntentRegistry) throws(RunError)
    -> [String: FlowValue]
  {
    let lists = Set(
      workflow.inputs.filter { InputResolver.declaredType(of: $0, registry: registry).isList }.map(\.name.value))
    var given: [String: FlowValue] = [:]
    for assignment in assignments {
      guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
        throw RunError(
          .invalid,
          Diagnostic(.error, .invalidInput, "'--input \(assignment)' is not NAME=VALUE", file: nil)
            .help("write --input url=https://example.com"))
      }
      let name = String(assignment[..<equals])
      let value = FlowValue.text(String(assignment[assignment.index(after: equals)...]))
      if lists.contains(name), case .list(let items)? = given[name] {
        given[name] = .list(items + [value])
      } else {
        given[name] = lists.contains(name) ? .list([value]) : value
      }
    }
    return given
  }

  /// Piped standard input as the value of the workflow's single input. A list input gets one item per
  /// line, the way `xargs` and `while read` take a pipe (`grep -o 'https://[^ ]*' notes.md | flow run
  /// save-all.yml`): each line without the spaces around it, and blank lines skipped, since a trailing
  /// newline or a gap between groups is not an item anyone meant; `\r\n` ends a line too. Any other input
  /// takes the whole text without its final line break, as `$(cat)` would.
  static func piped(_ text: String, isList: Bool) -> FlowValue {
    guard isList else { return .text(text.hasSuffix("\n") ? String(text.dropLast()) : text) }
    let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
    return .list(lines.filter { !$0.isEmpty }.map(FlowValue.text))
  }
}
