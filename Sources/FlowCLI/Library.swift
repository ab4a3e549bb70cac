import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSharing
import Foundation

/// What the library commands (`new`, `remove`) share: names and how they refuse.
enum Library {
  /// A library name: letters, digits, `-` and `_`, starting with a letter or digit; what `flow run NAME`
  /// takes and a file name on every system.
  static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
      return false
    }
    return name.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
    }
  }

  /// The name without `.yml` or `.yaml`, which people add out of habit.
  static func stripExtension(_ name: String) -> String {
    for suffix in [".yml", ".yaml"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
    return name
  }

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
  static func fail(_ diagnostic: Diagnostic, _ context: CLIContext) -> ExitCode {
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
