import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSession
import FlowSystem
import FoundationEssentials

/// `flow show WORKFLOW`: draws a workflow the way the Shortcuts editor does, and says what it may do.
struct ShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Draw a workflow: its steps as nested blocks, and what it may do.",
    discussion: """
      WORKFLOW is a path, or a name looked up in the library and then in ./workflows, as for 'flow run'. \
      Shows the name, the summary line (actions, dates, signature), the inputs, the schedule, every step \
      as a sentence with its values, magic variables as ⟨chips⟩ and the conversions they go through, and \
      in the margin what each step may change, delete or contact. Fits the terminal's width (COLUMNS); \
      colour only at a terminal, without NO_COLOR or TERM=dumb. An invalid workflow is reported as 'flow validate' does.
      """
  )

  @Argument(help: "The workflow: a path or a name.", completion: Completions.workflow)
  var workflow: String

  @Flag(help: "Print the outline and what the workflow may do as JSON on standard output.")
  var json = false

  func run() async throws {
    // Drawing holds nothing to finish: Ctrl-C and SIGTERM end it at once, however big the file.
    try Interrupts.endingAtOnce { try show() }
  }

  private func show() throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    // The check reads every workflow the file runs; the outline then finds them in its cache.
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let (loaded, diagnostics) = locator.check(workflow, with: check)
    guard let loaded, !diagnostics.hasErrors else {
      context.report(diagnostics)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    if !diagnostics.isEmpty { context.report(diagnostics) }
    var outline = OutlineBuilder(registry: Catalogs.registry, loader: check).outline(
      of: loaded, provenance: Presentation.provenance(of: loaded, in: context), now: context.clock.now)
    // Whether run-shell's fences hold here, which the card says (Shell.md).
    if LandlockFence.abi(environment: context.environment) == nil { outline.capabilities.landlock = false }
    if json {
      try context.printJSON(outline)
    } else {
      context.console.write(
        OutlineRenderer(width: context.outputWidth, colors: context.outputColors).render(outline), to: .output)
    }
  }
}
