import ArgumentParser
import FlowCron
import FlowDiagnostics
import FlowHistory
import FlowLibrary
import FlowPresentation
import FlowRuntime
import FlowSession
import FlowYAML
import FoundationEssentials

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
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    // One check for the library: a workflow that several others run is read once.
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let history = Self.history(context)
    let entries = locator.libraryWorkflows.map {
      entry(name: $0.name, url: $0.url, locator: locator, check: check, history: history, context: context)
    }
    if json {
      try context.printJSON(Listing(library: locator.libraryDirectory.path, workflows: entries))
    } else if entries.isEmpty {
      context.console.write(
        "the library (\(locator.libraryDirectory.path)) has no workflows\n"
          + "  'flow new NAME' starts one there\n",
        to: .error)
    } else {
      context.console.write(
        LibraryTable(width: context.outputWidthLimit, colors: context.outputColors).render(
          entries, now: context.clock.now),
        to: .output)
    }
  }

  private func entry(
    name: String, url: URL, locator: WorkflowLocator, check: WorkflowCheck, history: RunHistory?,
    context: SessionContext
  ) -> LibraryEntry {
    let (workflow, diagnostics) = locator.check(url.path, with: check)
    let lastRun = history.flatMap { Self.lastRun(of: locator.resolvedPath(url.path), in: $0) }
    guard let workflow, !diagnostics.hasErrors else {
      let bytes = (try? RegularFile.read(url.path, limit: YAMLLimits.workflow.maxFileSize).get()) ?? []
      return LibraryEntry(
        name: name, file: url.path, title: nil, description: nil, actions: nil, schedule: [],
        signature: Presentation.signature(of: bytes, at: url, in: context), lastRun: lastRun,
        errors: max(1, diagnostics.errorCount))
    }
    let provenance = Presentation.provenance(of: workflow, in: context)
    var entry = LibraryEntry(
      name: name, file: url.path, title: workflow.name, description: workflow.description,
      actions: workflow.actionCount,
      schedule: Capabilities.Schedule.entries(of: workflow), signature: provenance.signature,
      lastRun: lastRun, errors: 0)
    entry.triggers = Capabilities.TriggerUse.entries(of: workflow)
    return entry
  }

  /// Run history, when there is any to read. A list is no reason to create it, and history that cannot
  /// be read leaves the column empty rather than failing the list.
  static func history(_ context: SessionContext) -> RunHistory? {
    let file = context.paths.history
    guard RunHistory.exists(at: file) else { return nil }
    return try? RunHistory(file: file)
  }

  /// How the newest run of the workflow at `path` (resolved, as history keys it) ended, or is going.
  static func lastRun(of path: String, in history: RunHistory) -> LastRun? {
    guard let run = try? history.runs(RunHistory.Query(path: path, limit: 1)).first else { return nil }
    return LastRun(status: run.status.rawValue, finished: run.ended ?? run.started)
  }

  private struct Listing: Encodable {
    var library: String?
    var workflows: [LibraryEntry]
  }
}
