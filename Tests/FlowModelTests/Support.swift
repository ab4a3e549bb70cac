import FlowDiagnostics
import FlowYAML
import Testing

@testable import FlowModel

/// Decodes `text` as a workflow file named `test.yml`.
func decode(_ text: String) -> (workflow: Workflow?, diagnostics: Diagnostics) {
  WorkflowDecoder.decode(YAMLDocument.load(SourceFile(path: "test.yml", text: text)))
}

/// Decodes a workflow whose steps are `steps` (indented as list items under `steps:`).
func decodeSteps(_ steps: String) -> (steps: [Step], diagnostics: Diagnostics) {
  let result = decode("flow: 1\nsteps:\n" + steps)
  return (result.workflow?.steps ?? [], result.diagnostics)
}

func at(_ line: Int, _ column: Int) -> FlowDiagnostics.SourceLocation {
  FlowDiagnostics.SourceLocation(line: line, column: column)
}

/// Records a failure; returns nothing, so that `return fail("…")` ends a test after a failed match.
func fail(_ comment: Testing.Comment, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  Issue.record(comment, sourceLocation: sourceLocation)
}
