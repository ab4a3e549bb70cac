import ArgumentParser
import FlowSession

/// `flow run WORKFLOW`: checks a workflow, resolves its inputs and runs it.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    // Said only when `run` is parsed as the root (``parsedDirectly(_:)``): its usage then reads
    // `flow run`, and ArgumentParser skips its completion-script probe, which is meant for `flow`.
    _superCommandName: "flow",
    abstract: "Run a workflow.",
    discussion: """
      WORKFLOW is a path, or a name looked up in the library and then in ./workflows. \
      The whole file is checked before any step runs. Results go to standard output, progress and \
      questions to standard error. Without a terminal (or with --no-input) nothing is asked: a missing \
      value or confirmation stops the run with exit status 4 and says which flag would answer it.
      """
  )

  @Argument(help: "The workflow: a path or a name.", completion: Completions.workflow)
  var workflow: String

  @Option(
    name: .customLong("input"),
    help: ArgumentHelp("Give an input a value; repeat it for each item of a list input.", valueName: "NAME=VALUE"))
  var inputs: [String] = []

  @Option(help: ArgumentHelp("Read inputs from a YAML or JSON mapping.", valueName: "FILE"))
  var inputFile: String?

  @Option(
    name: .customLong("trigger-event"),
    help: ArgumentHelp(
      "Run as if the workflow's trigger fired: file=PATH (repeat for several), wifi=SSID, power=PERCENT, session=unlock…; event=, label= and time= add to it.",
      valueName: "KEY=VALUE"))
  var triggerEvents: [String] = []

  @OptionGroup var options: ActionOptions

  @Flag(
    help:
      "Perform nothing that changes anything and contact no host a step names; show those steps with their parameters. --dry-run=reads also makes the GET requests."
  )
  var dryRun = false

  /// `--dry-run=reads`, as ``spelled(_:)`` hands it to the parser: a flag takes no value.
  @Flag(name: .customLong("dry-run-reads"), help: .hidden)
  var dryRunReads = false

  @Flag(help: "Print the result as JSON on standard output.")
  var json = false

  @OptionGroup var recording: RecordingOptions

  /// What the command line asked for, as a plain value.
  var request: RunRequest {
    RunRequest(
      workflow: workflow, inputs: inputs, inputFile: inputFile,
      action: ActionSettings(yes: options.yes, noInput: options.noInput, backend: options.backend),
      dryRun: dryRun || dryRunReads, dryRunReads: dryRunReads, json: json, trigger: recording.trigger,
      triggerEvents: triggerEvents, noHistory: recording.noHistory,
      wait: recording.wait, awaitsTrigger: recording.awaitTrigger)
  }

  func run() async throws { try await request.run() }

  /// `flow run …` parsed without the rest of the command tree, or nil for anything else.
  ///
  /// The most common command is the one whose start-up counts. Parsed from `flow`, ArgumentParser builds
  /// every command and, before anything else, probes for `--generate-completion-script` by reflecting
  /// over two pseudo-commands: a quarter of a one-step run's instructions. Parsed as the root, `run`
  /// skips both (see `configuration`); a plain run (``RunRequest/plain(_:)``) skips ArgumentParser
  /// altogether. Anything the direct parse does not turn into a request (help, `--version`, a usage
  /// error, a completion request) goes through `flow`'s parser, so every answer and message stays
  /// `flow`'s.
  /// `flow run`'s arguments with `--dry-run=reads` as the flag the parser knows, `--dry-run-reads`.
  static func spelled(_ arguments: [String]) -> [String] {
    guard arguments.first == "run", arguments.contains("--dry-run=reads") else { return arguments }
    return arguments.map { $0 == "--dry-run=reads" ? "--dry-run-reads" : $0 }
  }

  static func parsedDirectly(_ arguments: [String]) -> RunRequest? {
    guard arguments.first == "run" else { return nil }
    if let plain = RunRequest.plain(arguments.dropFirst()) { return plain }
    return ((try? parseAsRoot(Array(arguments.dropFirst()))) as? RunCommand)?.request
  }
}
