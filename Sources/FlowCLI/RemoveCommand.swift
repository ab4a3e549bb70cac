import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSharing
import FoundationEssentials

/// `flow remove NAME`: takes a workflow out of the library, keeping a backup.
struct RemoveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove a workflow from the library, keeping a backup.",
    discussion: """
      Moves NAME.yml from the library into the library's .backup folder, with the time of removal in its \
      name (NAME-20261123T091500Z.yml), and prints where. Moving it back restores it.
      """
  )

  @Argument(help: "The name of a workflow in the library.", completion: Completions.libraryWorkflow)
  var name: String

  func run() async throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    let library = locator.libraryDirectory
    let workflows = locator.libraryWorkflows
    let name = WorkflowName.stripExtension(name)
    guard let entry = workflows.first(where: { $0.name == name }) else {
      let help =
        name.contains("/")
        ? "'flow remove' takes the name of a workflow in the library (\(library.path)), not a path"
        : Suggestion.help(for: name, among: workflows.map(\.name), listUpTo: 8)
          ?? "'flow list' shows the workflows in the library"
      throw Library.fail(
        Diagnostic(.error, .notInLibrary, "the library has no workflow named '\(self.name)'", at: nil).help(help),
        context)
    }
    let backup: URL
    do {
      backup = try Importer.backUp(
        entry.url, name: name, into: locator.backupDirectory, now: context.clock.now)
    } catch {
      throw Library.fail(
        Diagnostic(
          .error, .cannotWrite, "cannot move the workflow to the backups: \(error.reason)",
          file: entry.url.path), context)
    }
    context.print("removed '\(name)'; the backup is \(backup.path)")
    if LauncherEntries(context: context).remove(name) {
      context.console.write("removed '\(name)' from the launcher\n", to: .error)
    }
  }
}
