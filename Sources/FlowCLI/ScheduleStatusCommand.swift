import ArgumentParser
import FlowDiagnostics
import FlowHistory
import FlowLibrary
import FlowScheduler
import FlowSession
import FoundationEssentials

/// `flow schedule status`: what the running scheduler has armed, as it last wrote it.
struct ScheduleStatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show the triggers the scheduler has armed, their sources and their last firing.",
    discussion: """
      Read from what the running scheduler writes each time something changes \
      ($XDG_STATE_HOME/flow/scheduler-status.json). Each armed workflow with each of its triggers and \
      its state (armed, or what it waits for), its run going or queued and its last firing; then the \
      workflows whose triggers are not armed, and why; then the sources of events. --json prints the \
      same as one object.
      """
  )

  @Flag(help: "Print the status as JSON on standard output.")
  var json = false

  struct Report: Encodable {
    /// Whether a scheduler holds the scheduler's lock now.
    var running: Bool
    var status: SchedulerStatus?
  }

  func run() async throws {
    let context = SessionContext.current
    let paths = context.paths
    let key = paths.state.appending(path: "scheduler").path
    let holder = WorkflowLock.holder(of: key, in: paths.locks)
    let status = holder == nil ? nil : StatusFile(file: paths.schedulerStatus).load()
    if json {
      return try context.printJSON(Report(running: holder != nil, status: status))
    }
    guard let holder else {
      context.print("the scheduler is not running: nothing is armed")
      context.print("  start it with 'systemctl --user start flow-schedule', or run 'flow schedule'")
      return
    }
    let time = LocalTime(context)
    var lines = ["scheduler: running (pid \(holder.process.pid), since \(time.format(holder.started)))"]
    guard let status else {
      lines.append("  it has not said what it armed yet")
      return context.print(lines.joined(separator: "\n"))
    }
    if status.automations.isEmpty { lines.append("no workflow's triggers are armed") }
    for armed in status.automations {
      lines.append("")
      lines.append("\(armed.name) (\(armed.path))")
      let width = armed.triggers.map(\.words.count).max() ?? 0
      for trigger in armed.triggers {
        lines.append(
          "  \(PlainText.padded(trigger.kind, to: 8))"
            + "\(PlainText.padded(trigger.words, to: width))  \(trigger.state)")
      }
      if let last = armed.lastFiring {
        lines.append(
          "  last fired \(time.format(last))" + (armed.lastDetail.map { ": " + TerminalSafe.text($0) } ?? ""))
      } else {
        lines.append("  not fired since the scheduler started")
      }
      if let running = armed.running { lines.append("  running: run \(running.prefix(8))") }
      if let queued = armed.queued { lines.append("  queued: " + TerminalSafe.text(queued)) }
    }
    if !status.unarmed.isEmpty {
      lines.append("")
      lines.append("not armed")
      for unarmed in status.unarmed { lines.append("  \(unarmed.name) (\(unarmed.path)): \(unarmed.reason)") }
    }
    if !status.sources.isEmpty {
      lines.append("")
      lines.append("sources")
      let width = status.sources.map(\.name.count).max() ?? 0
      for source in status.sources {
        lines.append("  \(PlainText.padded(source.name, to: width))  \(source.state)")
      }
    }
    context.print(lines.joined(separator: "\n"))
  }
}
