import ArgumentParser
import FlowHistory
import FlowSession

/// How `flow run` is recorded and locked: `--trigger`, `--no-history`, `--wait`.
struct RecordingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "What started the run, as run history records it.",
      valueName: RunTrigger.allCases.prefix { $0 != .file }.filter { ![.do, .mcp, .launcher].contains($0) }.map(\.rawValue)
        .joined(separator: "|")))
  var trigger: RunTrigger = .manual

  @Flag(help: "Do not record this run in run history.")
  var noHistory = false

  @Flag(help: "If the workflow is already running, wait for that run to end instead of skipping this one.")
  var wait = false
}

extension RunTrigger: ExpressibleByArgument {}
