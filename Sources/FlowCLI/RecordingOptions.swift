import ArgumentParser
import FlowHistory
import FlowSession

/// How `flow run` is recorded and locked: `--trigger`, `--no-history`, `--wait`; and `--await-trigger`,
/// the scheduler's run started ahead of its trigger's next firing.
struct RecordingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "What started the run, as run history records it.",
      valueName: Self.listedTriggers.map(\.rawValue).joined(separator: "|")))
  var trigger: RunTrigger = .manual

  /// The triggers people and installed units give; `do`, `mcp` and `launcher` are set by their own
  /// command, server and desktop entries.
  static let listedTriggers = RunTrigger.allCases.prefix { $0 != .file }.filter {
    ![.do, .mcp, .launcher].contains($0)
  }

  @Flag(help: "Do not record this run in run history.")
  var noHistory = false

  @Flag(help: "If the workflow is already running, wait for that run to end instead of skipping this one.")
  var wait = false

  /// The scheduler's warm run (Automations.md): checked now, then waiting on standard input for what the
  /// trigger brought (``TriggerHandOver``), so that a firing costs no start and no check.
  @Flag(help: .hidden)
  var awaitTrigger = false
}

extension RunTrigger: ExpressibleByArgument {}
