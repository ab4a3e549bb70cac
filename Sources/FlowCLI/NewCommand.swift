import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowPresentation
import FlowSession
import FoundationEssentials

/// `flow new NAME`: a commented skeleton in the library, ready to edit.
struct NewCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "new",
    abstract: "Start a workflow in the library from a commented skeleton.",
    discussion: """
      Writes NAME.yml into the library (never over an existing workflow) and prints its path. The file \
      starts with the modeline that points editors at the JSON Schema, which is written beside it as \
      flow.schema.json (see 'flow schema').
      """
  )

  @Argument(help: "The workflow's name: letters, digits, '-' and '_'.")
  var name: String

  func run() async throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    let name = WorkflowName.stripExtension(name)
    guard WorkflowName.isValidName(name) else {
      throw Library.fail(
        Diagnostic(.error, .invalidWorkflowName, "'\(self.name)' cannot name a workflow", at: nil)
          .help("use letters, digits, '-' and '_', starting with a letter or digit, like 'daily-digest'"), context)
    }
    if let lookAlike = LookAlikes.problem(name, .workflow, among: locator.libraryWorkflows.map(\.name)) {
      throw Library.fail(lookAlike, context)
    }
    let library = locator.libraryDirectory
    if let existing = locator.libraryWorkflows.first(where: { $0.name == name }) {
      throw Library.fail(
        Diagnostic(
          .error, .workflowExists, "the library already has a workflow named '\(name)'", file: existing.url.path
        )
        .help("choose another name, or remove it first with 'flow remove \(name)' (which keeps a backup)"), context)
    }
    let file = library.appendingPathComponent("\(name).yml")
    do {
      // Never over a file that appeared meanwhile.
      try PrivateFiles.write(Data(WorkflowSkeleton.text(name: name).utf8), to: file, replacing: false)
      try PrivateFiles.write(
        Data(WorkflowSchema.json(Catalogs.registry).utf8),
        to: library.appendingPathComponent(WorkflowSkeleton.schemaFileName))
    } catch {
      throw Library.fail(
        Diagnostic(.error, .cannotWrite, "cannot write the workflow: \(error.reason)", file: file.path),
        context)
    }
    context.print(file.path)
    context.console.write("edit it, then: flow run \(name)\n", to: .error)
  }
}
