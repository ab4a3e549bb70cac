import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime

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
}
