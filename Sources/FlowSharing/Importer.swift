import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowModel
import FlowRuntime
import FoundationEssentials

/// `flow import`'s pipeline, stage by stage: the signature and the check (``inspect(_:)``), the answers
/// to the import questions (``problem(_:type:)``, ``copy(of:answers:)``), and the library copy with its
/// provenance (``add(_:as:replacing:origin:verification:answered:approved:armed:now:)``). The command line reads the
/// file, shows the card and asks between the stages; nothing here prints or asks.
public struct Importer {
  /// The file as the person named it, for messages.
  public let source: String
  /// The library folder, where the copy goes and where the workflows it runs are looked for.
  public let library: URL
  /// The check over the library's workflow files, so that the card, the import and every later run
  /// resolve the same children.
  public let check: WorkflowCheck

  public init(source: String, library: URL, check: WorkflowCheck) {
    self.source = source
    self.library = library
    self.check = check
  }

  /// A shared file, verified and checked as the library copy it will become.
  public struct Inspection {
    public var verification: SignedFile.Verification
    public var workflow: Workflow
    /// Warnings: the file has no errors.
    public var warnings: Diagnostics
  }

  /// Why a file is refused before anything is asked: a signature that does not hold, or errors.
  public enum Refusal: Error {
    case signature(Diagnostic)
    case invalid(Diagnostics)
  }

  /// Verifies the signature with the keys `trustedName` knows, and checks the file as `flow validate`
  /// checks it, the signature block included as a comment, and as the library copy it will become: the
  /// workflows it runs that it does not carry are looked for from the library's folder, as every later
  /// run of the copy looks for them (issue 16), never beside the download or in the working directory.
  public func inspect(
    _ bytes: [UInt8], trustedName: (PublicKey) -> String?
  ) -> Result<Inspection, Refusal> {
    let verification = SignedFile.verify(bytes, trustedName: trustedName)
    switch verification.status {
    case .tampered:
      return .failure(
        .signature(
          Diagnostic(
            .error, .tamperedFile, "refusing to import: the file was changed after it was signed", file: source
          ).help("ask the sender for the file again; a signed file is imported only as it was signed")))
    case .malformed:
      return .failure(
        .signature(
          Diagnostic(
            .error, .malformedSignature,
            "refusing to import: \(verification.problem ?? "the signature does not read")", file: source
          ).help("ask the sender for the file again")))
    default:
      break
    }
    let (loaded, diagnostics) = check.check(SourceFile(path: source, bytes: bytes), asIfIn: library.path)
    guard let workflow = loaded, !diagnostics.hasErrors else { return .failure(.invalid(diagnostics)) }
    return .success(Inspection(verification: verification, workflow: workflow, warnings: diagnostics))
  }

  /// Why `answer` does not fit `type`, or nil.
  public static func problem(_ answer: String, type: ValueType) -> String? {
    if case .entity = type.elementType { return nil }
    let value: FlowValue =
      if case .list = type {
        .list(answer.split(separator: ",").map { .text($0.trimmingWhitespace()) })
      } else {
        .text(answer)
      }
    do {
      _ = try Coercion.coerce(value, to: type)
      return nil
    } catch {
      return AppIntentError.describe(error).message
    }
  }

  /// The library copy: as signed, without the signature block, with the answers (YAML by input name)
  /// as defaults, checked again as it will be run.
  public func copy(of inspection: Inspection, answers: [String: String]) -> Result<[UInt8], DiagnosticError> {
    let copy: [UInt8]
    switch ImportAnswers.apply(answers, to: inspection.verification.content, path: source) {
    case .success(let edited): copy = edited
    case .failure(let error): return .failure(error)
    }
    let recheck = check.check(SourceFile(path: source, bytes: copy), asIfIn: library.path)
    guard recheck.workflow != nil, !recheck.diagnostics.hasErrors else {
      return .failure(DiagnosticError(recheck.diagnostics))
    }
    return .success(copy)
  }

  /// Writes `copy` into the library as `name`, keeping the workflow it replaces (`replacing`) as a
  /// backup, and its provenance record; returns where each went.
  public func add(
    _ copy: [UInt8], as name: String, replacing existing: URL?, origin: String,
    verification: SignedFile.Verification, answered: [String], approved: CapabilitySet, armed: Bool? = nil,
    now: Date
  ) throws -> (target: URL, backup: URL?) {
    let target = library.appendingPathComponent("\(name).yml")
    try PrivateFiles.ensureDirectory(library)
    let backup = try existing.map {
      try Self.backUp($0, name: name, into: WorkflowLocator.backupDirectory(of: library), now: now)
    }
    let status =
      switch verification.status {
      case .trusted: "trusted"
      case .unknownKey: "unknown-key"
      default: "unsigned"
      }
    // The record first: a scheduler that reads the new file must find it, or would take an imported
    // workflow for the person's own and arm its triggers without their consent.
    try ProvenanceRecord(
      source: origin, imported: SharedTime.format(now), signer: verification.key, status: status, copy: copy,
      answered: answered, approved: approved, armed: armed
    ).write(for: target)
    try PrivateFiles.write(Data(copy), to: target)
    return (target, backup)
  }

  /// Moves the library workflow at `file` into `backups`, with its provenance record, named with the
  /// time in UTC (`NAME-20261123T091500Z.yml`, `-2` for a second in the same second); returns where.
  public static func backUp(_ file: URL, name: String, into backups: URL, now: Date) throws -> URL {
    let stamp = now.formatted(.iso8601.dateSeparator(.omitted).timeSeparator(.omitted))
    var stem = "\(name)-\(stamp)"
    var attempt = 1
    while FileManager.default.fileExists(atPath: backups.appendingPathComponent("\(stem).\(file.pathExtension)").path) {
      attempt += 1
      stem = "\(name)-\(stamp)-\(attempt)"
    }
    let backup = backups.appendingPathComponent("\(stem).\(file.pathExtension)")
    try PrivateFiles.ensureDirectory(backups)
    try FileManager.default.moveItem(at: file, to: backup)
    let record = ProvenanceRecord.url(for: file)
    if FileManager.default.fileExists(atPath: record.path) {
      try FileManager.default.moveItem(at: record, to: backups.appendingPathComponent("\(stem).provenance.json"))
    }
    return backup
  }
}
