import ArgumentParser
import FlowDiagnostics
import FlowPresentation
import FlowRuntime
import Foundation

/// `flow list`: the workflows in the library.
struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the workflows in the library.",
    discussion: """
      Shows each workflow's name (what 'flow run NAME' takes), number of actions, schedule, signature, \
      last run and description. A file that does not load says how many errors 'flow validate' finds.
      """
  )

  @Flag(help: "Print the list as JSON on standard output.")
  var json = false

  func run() async throws {
    let context = CLIContext.current
    let locator = WorkflowLocator(context: context)
    // One check for the library: a workflow that several others run is read once.
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let entries = locator.libraryWorkflows.map { entry(name: $0.name, url: $0.url, locator: locator, check: check) }
    if json {
      try context.printJSON(Listing(library: locator.libraryDirectory?.path, workflows: entries))
    } else if entries.isEmpty {
      context.console.write(
        "the library (\(locator.libraryDirectory?.path ?? "no folder: HOME is not set")) has no workflows\n"
          + "  'flow new NAME' starts one there\n",
        to: .error)
    } else {
      context.console.write(
        LibraryTable(width: context.outputWidth, colors: context.outputColors).render(entries, now: context.clock.now),
        to: .output)
    }
  }

  private func entry(name: String, url: URL, locator: WorkflowLocator, check: WorkflowCheck) -> LibraryEntry {
    let (workflow, diagnostics) = locator.check(url.path, with: check)
    guard let workflow, !diagnostics.hasErrors else {
      return LibraryEntry(
        name: name, file: url.path, title: nil, description: nil, actions: nil, schedule: [],
        signature: .unsigned, lastRun: Self.lastRun(of: url), errors: max(1, diagnostics.errorCount))
    }
    let provenance = Presentation.provenance(of: workflow, in: locator.context)
    return LibraryEntry(
      name: name, file: url.path, title: workflow.name, description: workflow.description,
      actions: workflow.actionCount,
      schedule: Capabilities.Schedule.entries(of: workflow), signature: provenance.signature,
      lastRun: Self.lastRun(of: url), errors: 0)
  }

  /// The seam for run history: how the workflow's last run ended. TODO(#8): read it from branch
  /// `history`'s run history (`FlowLibrary`) once that lands; until then the column says "—".
  static func lastRun(of file: URL) -> LastRun? { nil }

  private struct Listing: Encodable {
    var library: String?
    var workflows: [LibraryEntry]
  }
}
