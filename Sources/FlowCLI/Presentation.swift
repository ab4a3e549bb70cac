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
    return Provenance(
      created: workflow.shared?.created.flatMap { Sharing.date($0.value) },
      modified: workflow.shared?.modified.flatMap { Sharing.date($0.value) }
        ?? attributes?[.modificationDate] as? Date,
      signature: signature(of: workflow.file.bytes, at: url, in: context))
  }

  /// Who signed the file at `url`, whose bytes are `bytes`: for a library workflow, its provenance
  /// record's signer while the bytes are those `flow import` wrote; else its own signature block; with
  /// the keys trusted now. The bytes alone decide, so a file that does not load as a workflow still says
  /// whether it was tampered.
  ///
  /// Records are read only in the library, where `flow import` writes them: a `.provenance` folder that
  /// comes with a cloned repository or an unpacked archive is anyone's text, and would otherwise make
  /// any file beside it read as signed by a key the person trusts.
  static func signature(of bytes: [UInt8], at url: URL, in context: CLIContext) -> SignatureStatus {
    let trustedName = Sharing.keyStore(context).trustedNames()
    if isInLibrary(url, context), let record = ProvenanceRecord.read(for: url) {
      return record.status(of: bytes, trustedName: trustedName)
    }
    return SignedFile.verify(bytes, trustedName: trustedName).status
  }

  /// Whether `url` is a workflow file of the library itself (not of a folder below it).
  private static func isInLibrary(_ url: URL, _ context: CLIContext) -> Bool {
    let folder = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().path
    return folder == context.paths.workflows.standardizedFileURL.resolvingSymlinksInPath().path
  }
}
