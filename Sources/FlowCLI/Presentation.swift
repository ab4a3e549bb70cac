import FlowModel
import FlowPresentation
import FlowSharing
import Foundation

/// What the presenting commands (`show`, `list`, `import`, `export --html`) learn about a workflow beyond
/// its steps, in one place.
enum Presentation {
  /// Dates and signature for the summary line.
  ///
  /// Dates: a shared file's `shared:` block; else, and for `modified` when the block has none, the file's
  /// modification time. Signature: for a library copy that `flow import` wrote, its provenance record
  /// (who signed what was imported, while the copy is unchanged); otherwise the file's own signature
  /// block, checked against the keys the person trusts.
  static func provenance(of workflow: Workflow, in context: CLIContext) -> Provenance {
    let url = context.url(for: workflow.file.path)
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    let store = Sharing.keyStore(context)
    let trusted = store.trustedKeys()
    let trustedName: (PublicKey) -> String? = { key in trusted.first { $0.publicKey == key }?.name }
    let signature: SignatureStatus =
      if let record = ProvenanceRecord.read(for: url) {
        record.status(of: workflow.file.bytes, trustedName: trustedName)
      } else {
        SignedFile.verify(workflow.file.bytes, trustedName: trustedName).status
      }
    return Provenance(
      created: workflow.shared?.created.flatMap { Sharing.date($0.value) },
      modified: workflow.shared?.modified.flatMap { Sharing.date($0.value) }
        ?? attributes?[.modificationDate] as? Date,
      signature: signature)
  }
}
