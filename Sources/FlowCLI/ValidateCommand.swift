import ArgumentParser
import FlowDiagnostics
import FlowRuntime
import Foundation

/// `flow validate FILE...`: checks workflow files without running anything.
struct ValidateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check workflow files without running them.",
    discussion: """
      Reports every problem found in every file, in the form 'file:line:column: error: message'. \
      Exits with status 0 when all files are valid and 2 when any is not.
      """
  )

  @Argument(help: "The workflows to check: paths, or names as 'flow run' takes them.", completion: Completions.workflow)
  var files: [String]

  @Flag(help: "Print the result as JSON on standard output.")
  var json = false

  func run() async throws {
    let context = CLIContext.current
    var all = Diagnostics()
    var results: [FileResult] = []
    let locator = WorkflowLocator(context: context, registry: Catalogs.registry)
    for reference in files {
      // A name from the library or ./workflows, as `flow run` takes it; otherwise the path as given.
      let path = locator.locate(reference) ?? reference
      let diagnostics: Diagnostics
      switch SourceReader.read(path, in: context) {
      case .success(let file): diagnostics = WorkflowCheck.load(file, registry: Catalogs.registry).diagnostics
      case .failure(let problem): diagnostics = Diagnostics([problem])
      }
      all.append(contentsOf: diagnostics)
      results.append(FileResult(path: path, valid: !diagnostics.hasErrors, diagnostics: diagnostics.sorted()))
    }
    if json {
      try context.printJSON(Report(valid: !all.hasErrors, files: results))
    } else {
      for result in results where result.valid { context.print("\(result.path): valid") }
      context.report(all)
    }
    if all.hasErrors { throw ExitCode(ExitStatus.invalid.rawValue) }
  }

  private struct Report: Encodable {
    var valid: Bool
    var files: [FileResult]
  }

  private struct FileResult: Encodable {
    var path: String
    var valid: Bool
    var diagnostics: [Diagnostic]
  }
}
