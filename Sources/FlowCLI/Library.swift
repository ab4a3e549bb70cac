import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSharing
import FoundationEssentials

/// What the library commands (`new`, `remove`) share: names and how they refuse.
enum Library {
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
