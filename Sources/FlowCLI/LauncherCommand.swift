import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowRuntime
import FlowSession
import FoundationEssentials

/// `flow launcher add|remove|list`: library workflows in the desktop's application launcher
/// (Documentation/Desktop.md, "The launcher"). What an entry holds and how it follows the library is
/// ``LauncherEntries``'s.
struct LauncherCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "launcher",
    abstract: "Put library workflows in the desktop's application launcher.",
    discussion: """
      Each workflow gets a desktop entry in $XDG_DATA_HOME/applications with its name, description, \
      phrases and an icon in its colour. The entry runs 'flow run --trigger launcher NAME', which asks \
      its questions in dialogs and says what the workflow showed, its result or its error in a \
      notification. Entries follow the library: removed, renamed and updated with it.
      """,
    subcommands: [LauncherAddCommand.self, LauncherRemoveCommand.self, LauncherListCommand.self]
  )
}

struct LauncherAddCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add a library workflow to the launcher, or bring its entry up to date.")

  @Argument(help: "The name of a workflow in the library.", completion: Completions.libraryWorkflow)
  var name: String

  func run() async throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    let name = WorkflowName.stripExtension(name)
    let url = try LauncherCommand.libraryFile(name, typed: self.name, locator: locator, context)
    guard WorkflowName.isValidName(name) else {
      throw Library.fail(
        Diagnostic(.error, .invalidWorkflowName, "'\(name)' cannot name a launcher entry", file: url.path)
          .help("rename the file with letters, digits, '-' and '_', like 'daily-digest.yml'"), context)
    }
    let (workflow, diagnostics) = locator.check(
      url.path, with: WorkflowCheck(registry: Catalogs.registry, files: locator))
    guard let workflow, !diagnostics.hasErrors else {
      context.report(diagnostics)
      throw Library.fail(
        Diagnostic(.error, .invalidWorkflow, "'\(name)' has errors: it would fail from the launcher", file: url.path)
          .help("'flow validate \(name)' shows them"), context)
    }
    let entries = LauncherEntries(context: context)
    do {
      try entries.write(workflow, name: name, file: url)
    } catch {
      throw Library.fail(
        Diagnostic(
          .error, .cannotWrite, "cannot write the launcher entry: \(error.reason)",
          file: entries.entryFile(name).path), context)
    }
    context.print(entries.entryFile(name).path)
    context.console.write("'\(workflow.name)' is in the launcher; it runs 'flow run \(name)'\n", to: .error)
  }
}

struct LauncherRemoveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", abstract: "Take a workflow out of the launcher (the workflow stays in the library).")

  @Argument(help: "The name of a workflow in the launcher.")
  var name: String

  func run() async throws {
    let context = SessionContext.current
    let entries = LauncherEntries(context: context)
    let name = WorkflowName.stripExtension(name)
    guard !name.contains("/"), entries.remove(name) else {
      throw Library.fail(
        Diagnostic(.error, .notInLauncher, "'\(self.name)' is not in the launcher", at: nil)
          .help(
            Suggestion.help(for: name, among: entries.installed().map(\.name), listUpTo: 8)
              ?? "'flow launcher list' shows the workflows in the launcher"), context)
    }
    context.console.write("removed '\(name)' from the launcher\n", to: .error)
  }
}

struct LauncherListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the workflows in the launcher, bringing their entries up to date first.")

  func run() async throws {
    let context = SessionContext.current
    let entries = LauncherEntries(context: context)
    for change in entries.follow(WorkflowLocator(context: context).libraryWorkflows) {
      let said =
        switch change {
        case .updated(let name): "updated the entry of '\(name)'"
        case .renamed(let old, let new): "'\(old)' is now '\(new)': its entry moved"
        case .removed(let name): "removed the entry of '\(name)': it is no longer in the library"
        }
      context.console.write(said + "\n", to: .error)
    }
    let installed = entries.installed()
    let width = installed.map(\.name.count).max() ?? 0
    for (name, entry) in installed {
      context.printShown(PlainText.padded(name, to: width) + "  " + (entry["Name"] ?? name))
    }
  }
}

extension LauncherCommand {
  /// The library file of `name`, or the command's end with a did-you-mean.
  static func libraryFile(_ name: String, typed: String, locator: WorkflowLocator, _ context: SessionContext) throws
    -> URL
  {
    let workflows = locator.libraryWorkflows
    if let entry = workflows.first(where: { $0.name == name }) { return entry.url }
    let help =
      name.contains("/")
      ? "the launcher takes workflows of the library (\(locator.libraryDirectory.path)); 'flow import' adds one"
      : Suggestion.help(for: name, among: workflows.map(\.name), listUpTo: 8)
        ?? "'flow list' shows the workflows in the library"
    throw Library.fail(
      Diagnostic(.error, .notInLibrary, "the library has no workflow named '\(typed)'", at: nil).help(help), context)
  }
}

extension DiagnosticCode {
  /// `flow launcher remove` was given a name that has no launcher entry.
  public static let notInLauncher: Self = "not-in-launcher"
}
