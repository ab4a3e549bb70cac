import ArgumentParser
import FlowDiagnostics

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
