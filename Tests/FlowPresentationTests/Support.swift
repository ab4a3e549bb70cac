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

/// A workflow from YAML text, checked; the test fails when it is not valid.
func workflow(_ yaml: String, path: String = "test.yml", sourceLocation: Testing.SourceLocation = #_sourceLocation)
  throws
  -> Workflow
{
  let (workflow, diagnostics) = WorkflowCheck.load(SourceFile(path: path, text: yaml), registry: registry)
  #expect(!diagnostics.hasErrors, "\(DiagnosticRenderer().render(diagnostics))", sourceLocation: sourceLocation)
  return try #require(workflow, sourceLocation: sourceLocation)
}

/// Workflows `run-workflow` finds by name, held in memory.
struct MemoryLoader: WorkflowLoading {
  var files: [String: String]

  func load(_ reference: String, from file: SourceFile) throws -> Workflow {
    guard let text = files[reference] else {
      throw RunError(
        .invalid, Diagnostic(.error, "file-not-found", "no workflow named '\(reference)'", file: reference))
    }
    let (workflow, diagnostics) = WorkflowCheck.load(SourceFile(path: reference, text: text), registry: registry)
    guard let workflow, !diagnostics.hasErrors else { throw RunError(.invalid, diagnostics) }
    return workflow
  }
}

/// The outline of `yaml`, with a fixed clock and no file dates.
func outline(_ yaml: String, loader: MemoryLoader? = nil) throws -> Outline {
  OutlineBuilder(registry: registry, loader: loader)
    .outline(of: try workflow(yaml), provenance: Provenance(), now: Date(timeIntervalSince1970: 1_795_000_000))
}

/// Every step of an outline, depth first.
func allSteps(_ steps: [OutlineStep]) -> [OutlineStep] {
  steps.flatMap { [$0] + allSteps($0.branches.flatMap(\.steps)) }
}

/// The step at `position`.
func step(_ position: String, of outline: Outline) throws -> OutlineStep {
  try #require(allSteps(outline.steps).first { $0.position == position })
}
