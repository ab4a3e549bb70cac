import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowScheduler
import FlowSession

/// `flow schedule [WORKFLOW…]`: the scheduler, what a service runs (issue 8 item 3).
struct ScheduleRunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run the scheduler: start scheduled workflows when they are due (the default).",
    discussion: """
      Schedules every workflow of the library ($XDG_DATA_HOME/flow/workflows) that has a 'schedule:', \
      and the WORKFLOW files named, and runs each as 'flow run --no-input --trigger scheduled' when it is \
      due, until SIGTERM or Ctrl-C. Never two runs of one workflow at once (a fire that finds it still \
      running is skipped, and the skip recorded); one catch-up run for fires missed while the scheduler \
      was not running; the workflows read again when the library changes and on SIGHUP. On SIGTERM the \
      runs going are cancelled and recorded as such, and it exits 0. One line per event on standard \
      error; --json prints JSON lines on standard output instead. A workflow named 'run' is scheduled \
      with 'flow schedule run run'.
      """
  )

  @Argument(
    help: "Workflows to schedule besides the library's: paths or names, found as 'flow run' finds them.",
    completion: Completions.workflow)
  var workflows: [String] = []

  @Flag(help: "Print what happens as JSON lines on standard output.")
  var json = false

  @Flag(help: "Start each line with the local time (journald and syslog add their own).")
  var timestamps = false

  /// In-process (tests), on a thread of the concurrency runtime: everything but the signals works.
  func run() async throws {
    try runOnThisThread()
  }

  /// Runs the scheduler on the calling thread until it is stopped: `FlowCommand.start` calls this on
  /// the main thread, before anything starts another thread.
  func runOnThisThread() throws {
    let context = SessionContext.current
    try refuseMistypedSubcommands(context)
    let log = SchedulerLog(context: context, json: json, timestamps: timestamps)
    let status = SchedulerService(context: context, references: workflows, log: log).run()
    if status != .success { throw ExitCode(status.rawValue) }
  }

  /// `flow schedule nxt`: a word that names no workflow but nearly names a subcommand is a typo, not a
  /// workflow still to be written, and is refused before a scheduler starts on it.
  private func refuseMistypedSubcommands(_ context: SessionContext) throws {
    let locator = WorkflowLocator(context: context)
    let subcommands = ScheduleCommand.configuration.subcommands.map { $0._commandName }
    for word in workflows where !word.contains("/") && locator.locate(word) == nil {
      guard let match = Suggestion.closest(to: word, among: subcommands) else { continue }
      context.report(
        Diagnostics([
          Diagnostic(.error, .unknownCommand, "unknown command '\(word)'", file: nil)
            .help("did you mean '\(match)'?")
            .help("a workflow '\(word)' would be looked for in the library and ./workflows")
        ]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }
}
