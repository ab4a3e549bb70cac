import FlowDiagnostics
import FlowPresentation
import FlowRuntime
import FlowSession
import FlowSharing
import Foundation

/// A whole file through what `flow validate`, `flow show` and `flow import` do with it, with the
/// catalogues flow ships: the signature, the check of the file and its embedded workflows, the
/// diagnostics as text and JSON, and for a valid file the outline, the permission card, the share page,
/// the outline as JSON and the unattended check.
enum CheckTarget {
  /// A fixed "now", so that one input always takes the same path.
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  static func run(_ bytes: [UInt8]) {
    let verification = SignedFile.verify(bytes, trustedName: { _ in nil })
    let file = SourceFile(path: "fuzz.flow.yml", bytes: bytes)
    let check = WorkflowCheck(registry: Catalogs.registry, files: NoWorkflowFiles())
    // As `flow import` checks it: as if it were already in the library.
    let (loaded, diagnostics) = check.check(file, asIfIn: "/fuzz/library")
    _ = DiagnosticRenderer(colors: true).render(diagnostics)
    _ = try? JSONEncoder().encode(diagnostics.sorted())
    guard let workflow = loaded, !diagnostics.hasErrors else { return }
    let outline = OutlineBuilder(registry: Catalogs.registry, loader: check).outline(
      of: workflow, provenance: Provenance(signature: verification.status), now: now)
    // Narrow widths wrap differently; the input picks one, so that it always picks the same.
    let width = 20 + bytes.count % 100
    _ = OutlineRenderer(width: width, colors: true).render(outline)
    _ = PermissionCard(width: width, colors: true).render(outline, source: file.path)
    _ = SharePage.html(outline, file: bytes, fileName: file.path)
    _ = try? JSONEncoder().encode(outline)
    _ = UnattendedCheck.check(
      workflow, answers: UnattendedCheck.Answers(inputs: [], confirmations: false), registry: Catalogs.registry,
      loader: check)
  }
}

/// No files at all: a `run-workflow` reaches only what the input embeds, and nothing is read from disk.
struct NoWorkflowFiles: WorkflowFiles {
  func locate(_ reference: String, inFolder folder: String) -> String? { nil }
  func canonicalPath(_ path: String) -> String { "/fuzz/\(path)" }
  func read(_ path: String) -> Result<SourceFile, Diagnostic> {
    .failure(Diagnostic(.error, "fuzz-no-files", "the fuzzing harness reads no files", file: path))
  }
}
