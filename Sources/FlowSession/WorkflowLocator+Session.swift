import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowRuntime

extension WorkflowLocator {
  /// The locator of `context`'s working directory and library.
  public init(context: SessionContext) {
    self.init(workingDirectory: context.workingDirectory, paths: context.paths)
  }

  /// Finds, reads and checks the workflow `reference` names, and every workflow it runs.
  public func check(_ reference: String, with check: WorkflowCheck) -> WorkflowCheck.Result {
    guard let path = locate(reference) else { return (nil, Diagnostics([notFound(reference)])) }
    return check.check(path: path)
  }

  /// A workflow about to run (`flow run`, a call to `flow mcp`): found, read and checked, with what stops
  /// a run before step 1: its errors, a server it names that is not configured here, a signature that
  /// does not hold.
  public func checkToRun(_ reference: String, in context: SessionContext) -> (
    check: WorkflowCheck, workflow: Workflow?, stopping: Diagnostics
  ) {
    let check = WorkflowCheck(registry: Catalogs.registry, files: self)
    let (loaded, checked) = self.check(reference, with: check)
    var stopping = checked.stoppingRun
    if let loaded {
      stopping.append(contentsOf: Presentation.signatureProblems(of: loaded, check: check, in: context))
    }
    return (check, loaded, stopping)
  }

  /// Finds, reads and checks the workflow `reference` names, and every workflow it runs, on its own.
  public func load(_ reference: String) -> WorkflowCheck.Result {
    check(reference, with: WorkflowCheck(registry: Catalogs.registry, files: self))
  }
}
