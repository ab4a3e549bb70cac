import FlowBasics
import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowPresentation
import FlowRuntime
import Foundation
import RaindropIntents
import Testing

/// The catalogues `flow` ships, for presenting real workflows.
let registry = IntentRegistry(catalogs: [BasicsCatalog.self, RaindropCatalog.self])

/// Workflows in memory, found by name.
struct MemoryFiles: WorkflowFiles {
  var files: [String: String]

  func locate(_ reference: String, inFolder folder: String) -> String? { files[reference] == nil ? nil : reference }
  func canonicalPath(_ path: String) -> String { path }
  func read(_ path: String) -> Result<SourceFile, Diagnostic> {
    files[path].map { .success(SourceFile(path: path, text: $0)) }
      ?? .failure(Diagnostic(.error, "file-not-found", "no such file", file: path))
  }
}

/// `yaml` as `test.yml`, checked with the workflows it runs from `others`: the workflow, and the check
/// that finds those it runs. The test fails when anything is invalid.
func checked(
  _ yaml: String, others: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (workflow: Workflow, loader: WorkflowCheck) {
  let check = WorkflowCheck(registry: registry, files: MemoryFiles(files: others.merging(["test.yml": yaml]) { $1 }))
  let (workflow, diagnostics) = check.check(path: "test.yml")
  #expect(!diagnostics.hasErrors, "\(DiagnosticRenderer().render(diagnostics))", sourceLocation: sourceLocation)
  return (try #require(workflow, sourceLocation: sourceLocation), check)
}

/// A workflow from YAML text, checked.
func workflow(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Workflow {
  try checked(yaml, sourceLocation: sourceLocation).workflow
}

/// The outline of `yaml`, with a fixed clock and no file dates.
func outline(_ yaml: String, others: [String: String] = [:]) throws -> Outline {
  let (workflow, loader) = try checked(yaml, others: others)
  return OutlineBuilder(registry: registry, loader: loader)
    .outline(of: workflow, provenance: Provenance(), now: Date(timeIntervalSince1970: 1_795_000_000))
}

/// Every step of an outline, depth first.
func allSteps(_ steps: [OutlineStep]) -> [OutlineStep] {
  steps.flatMap { [$0] + allSteps($0.branches.flatMap(\.steps)) }
}

/// The step at `position`.
func step(_ position: String, of outline: Outline) throws -> OutlineStep {
  try #require(allSteps(outline.steps).first { $0.position == position })
}
