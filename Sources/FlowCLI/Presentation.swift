import FlowModel
import FlowPresentation
import Foundation

/// What the presenting commands (`show`, `list`) learn about a workflow beyond its steps, in one place.
enum Presentation {
  /// Dates and signature for the summary line. A file that was never shared says when it was last
  /// modified (its modification time); the signature is `unsigned` until signing lands (issue 9).
  static func provenance(of workflow: Workflow, in context: CLIContext) -> Provenance {
    let attributes = try? FileManager.default.attributesOfItem(atPath: context.url(for: workflow.file.path).path)
    return Provenance(created: nil, modified: attributes?[.modificationDate] as? Date, signature: .unsigned)
  }
}
