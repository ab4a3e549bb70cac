import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowSession
import FlowSharing
import FoundationEssentials
import Glibc

/// `flow schedule arm WORKFLOW`: says that an imported workflow's triggers may start it by themselves;
/// `--off` takes that back. The scheduler reads it with the workflows (a change of the library).
struct ScheduleArmCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "arm",
    abstract: "Let an imported workflow's triggers start it by themselves (or, with --off, stop them).",
    discussion: """
      A workflow imported with 'flow import' starts by itself only once you say so: 'flow import --arm', \
      the import card's question, or this command. Your own workflows (written here, or edited since \
      they were imported) need nothing: their triggers are armed as soon as they check. The choice is \
      kept in the workflow's import record, beside it in the library.
      """
  )

  @Argument(help: "The imported workflow: its library name or path.", completion: Completions.workflow)
  var workflow: String

  @Flag(help: "Stop its triggers from starting it.")
  var off = false

  func run() async throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    guard let located = locator.locate(workflow) else {
      context.report(Diagnostics([locator.notFound(workflow)]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let file = URL(fileURLWithPath: locator.resolvedPath(located))
    guard var record = ProvenanceRecord.read(for: file) else {
      context.print("'\(workflow)' was not imported: its triggers are armed whenever it checks")
      return
    }
    record.armed = !off
    do {
      try record.write(for: file)
    } catch {
      context.report(
        Diagnostics([
          Diagnostic(.error, .cannotWrite, "cannot write \(ProvenanceRecord.url(for: file).path): \(error)", file: nil)
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    // The record is not a workflow file, which the scheduler watches: tell a running one to read again.
    let scheduler = WorkflowLock.holder(
      of: context.paths.state.appending(path: "scheduler").path, in: context.paths.locks)
    if let scheduler { kill(scheduler.process.pid, SIGHUP) }
    context.print(
      off
        ? "'\(workflow)' no longer starts by itself: its triggers are not armed"
        : "'\(workflow)' now starts by itself when its triggers fire"
          + (scheduler == nil ? " (once the scheduler runs: flow schedule)" : ""))
  }
}
