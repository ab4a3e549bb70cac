import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSharing
import Foundation

/// What the library commands (`new`, `remove`) share: names and how they refuse.
enum Library {
  /// Moves the library workflow at `file` into the backups, with its provenance record, named with the
  /// time in UTC (`NAME-20261123T091500Z.yml`, `-2` for a second in the same second); returns where.
  static func backUp(_ file: URL, name: String, locator: WorkflowLocator) throws -> URL {
    let backups = locator.backupDirectory
    let stamp = locator.context.clock.now.formatted(.iso8601.dateSeparator(.omitted).timeSeparator(.omitted))
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

  /// Reports `diagnostic` and returns the error that ends the command with the invalid-usage status.
  static func fail(_ diagnostic: Diagnostic, _ context: SessionContext) -> ExitCode {
    context.report(Diagnostics([diagnostic]))
    return ExitCode(ExitStatus.invalid.rawValue)
  }
}

extension DiagnosticCode {
  /// `flow new` was given a name that cannot name a workflow file.
  public static let invalidWorkflowName: Self = "invalid-workflow-name"
  /// `flow new` was given the name of a workflow the library already has.
  public static let workflowExists: Self = "workflow-exists"
  /// `flow remove` was given a name the library does not have.
  public static let notInLibrary: Self = "not-in-library"
}

extension Sharing {
  /// Reports a key store problem and returns the error that ends the command.
  static func fail(_ problem: KeyStore.Problem, _ context: SessionContext) -> ExitCode {
    Library.fail(Diagnostic(.error, .keyProblem, problem.message, file: problem.file).help(problem.help), context)
  }
}
