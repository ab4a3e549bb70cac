import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSharing
import FoundationEssentials

/// What the presenting commands (`show`, `list`, `import`, `export --html`) learn about a workflow beyond
/// its steps, in one place.
public enum Presentation {
  /// Dates and signature for the summary line.
  ///
  /// Dates: a shared file's `shared:` block; else, and for `modified` when the block has none, the file's
  /// modification time. Signature: for a library copy that `flow import` wrote, its provenance record
  /// (who signed what was imported, while the copy is unchanged); otherwise the file's own signature
  /// block, checked against the keys the person trusts.
  public static func provenance(of workflow: Workflow, in context: SessionContext) -> Provenance {
    let url = context.url(for: workflow.file.path)
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    return Provenance(
      created: workflow.shared?.created.flatMap { SharedTime.parse($0.value) },
      modified: workflow.shared?.modified.flatMap { SharedTime.parse($0.value) }
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
  public static func signature(of bytes: [UInt8], at url: URL, in context: SessionContext) -> SignatureStatus {
    let trustedName = Sharing.keyStore(context).trustedNames()
    if isInLibrary(url, context), let record = ProvenanceRecord.read(for: url) {
      return record.status(of: bytes, trustedName: trustedName)
    }
    return SignedFile.verify(bytes, trustedName: trustedName).status
  }

  /// A broken signature on `workflow`'s file or on any file it runs, for the commands that read files without
  /// showing their status (`flow run`, `flow validate`): the status ``signature(of:at:in:)`` gives `flow show`,
  /// as a diagnostic. An error for a library workflow (flow put it there verified, so it was changed behind
  /// flow's back); a warning elsewhere, where the file is the person's to run as they like. Embedded
  /// workflows are part of the file's own bytes.
  public static func signatureProblems(of workflow: Workflow, check: WorkflowCheck, in context: SessionContext)
    -> Diagnostics
  {
    var problems = Diagnostics()
    var seen: Set<String> = []
    let files =
      [workflow.file]
      + Sharing.tree(of: workflow, check: check).map(\.workflow)
      .filter { $0.embeddedName == nil }.map(\.file)
    for file in files where seen.insert(file.path).inserted {
      // Most files claim no signature: that costs one scan of their bytes, and no look at the keys.
      if case .unsigned = SignatureBlock.split(file.bytes) { continue }
      let url = context.url(for: file.path)
      let status = signature(of: file.bytes, at: url, in: context)
      guard status == .tampered || status == .malformed else { continue }
      let inLibrary = isInLibrary(url, context)
      let diagnostic = Diagnostic(
        inLibrary ? .error : .warning, status == .tampered ? .tamperedFile : .malformedSignature,
        status == .tampered
          ? "the file was changed after it was signed" : "the file's signature block does not read",
        file: file.path)
      problems.append(
        diagnostic.help(
          inLibrary
            ? "import it again from where it came from ('flow import'), or remove it with 'flow remove'"
            : "ask its author for a freshly signed copy; 'flow show' says who signed it"))
    }
    return problems
  }

  /// Whether `url` is a workflow file of the library itself (not of a folder below it).
  private static func isInLibrary(_ url: URL, _ context: SessionContext) -> Bool {
    isInLibrary(url.fileSystemPath, context)
  }

  /// Whether the file at `path` is in the library folder, the folders compared with their links
  /// resolved. As text: a URL's `standardizedFileURL` and `path` build a `Set<UInt8>`, which costs
  /// every run on this path a conformance scan.
  public static func isInLibrary(_ path: String, _ context: SessionContext) -> Bool {
    let absolute = context.absolutePath(path)
    guard let slash = absolute.utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
    let folder = slash == absolute.utf8.startIndex ? "/" : String(absolute[..<slash])
    let library = context.paths.workflows.fileSystemPath
    return (FileSystemPath.resolved(folder) ?? folder) == (FileSystemPath.resolved(library) ?? library)
  }
}
