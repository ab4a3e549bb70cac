import ArgumentParser
import FlowDiagnostics
import FlowHistory
import FlowLibrary
import FlowSession
import FoundationEssentials

/// `flow runs [WORKFLOW]` and `flow runs show ID`: run history (issue 8), newest first.
struct RunsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "runs",
    abstract: "List recorded runs, newest first, or show one with its trace.",
    discussion: """
      Every 'flow run' and 'flow do' is recorded in $XDG_STATE_HOME/flow/history.sqlite. A run whose \
      process died (killed, power loss) shows as interrupted. A workflow named 'show' is listed with \
      'flow runs list show'.
      """,
    subcommands: [List.self, Show.self],
    defaultSubcommand: List.self
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List runs, newest first.")

    @Argument(
      help: "Only runs of this workflow: a path, a library name, or the name it was recorded under.",
      completion: Completions.workflow)
    var workflow: String?

    @Option(
      help: ArgumentHelp(
        "Only runs that ended so (or are still running).",
        valueName: RunStatus.allCases.map(\.rawValue).joined(separator: "|")))
    var status: RunStatus?

    // Unconditional, so that `--limit -1` reaches validate() rather than read as an unknown option.
    @Option(parsing: .unconditional, help: "How many runs to list.")
    var limit = 20

    @Flag(help: "Print the runs as a JSON array.")
    var json = false

    func validate() throws {
      guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
      let context = SessionContext.current
      guard let history = try RunsCommand.history(context) else {
        return json ? try context.printJSON([RunJSON]()) : context.console.write("no runs recorded yet\n", to: .error)
      }
      var query = RunHistory.Query(status: status, limit: limit)
      if let workflow {
        query.workflow = workflow
        let locator = WorkflowLocator(context: context)
        query.path = locator.locate(workflow).map(locator.resolvedPath)
      }
      let runs = try RunsCommand.read(context) { () throws(HistoryError) in try history.runs(query) }
      if json { return try context.printJSON(runs.map { RunJSON($0) }) }
      guard !runs.isEmpty else {
        if let workflow, query.path == nil {
          let names = try RunsCommand.read(context) { () throws(HistoryError) in try history.workflowNames() }
          if !names.contains(where: { TextOrder.sameIgnoringCase($0, workflow) }) {
            let help =
              Suggestion.closest(to: workflow, among: names).map { "did you mean '\($0)'?" }
              ?? Suggestion.closest(to: workflow, among: ["show"]).map { _ in "to show one run: flow runs show ID" }
            context.report(
              Diagnostics([
                Diagnostic(.error, .unknownWorkflow, "no workflow named '\(workflow)' has run", file: nil)
                  .help(help ?? "run 'flow runs' to list every recorded run")
              ]))
            throw ExitCode(ExitStatus.invalid.rawValue)
          }
        }
        let runs = status.map { "\($0.rawValue) runs" } ?? "runs"
        return context.console.write("no \(runs)\(workflow.map { " of '\($0)'" } ?? "") recorded yet\n", to: .error)
      }
      context.console.write(RunHistoryText(context).list(runs), to: .output)
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one run: its steps with their durations, and the error with its source.",
      discussion: "ID may be any unique start of a run's id, as with git.")

    @Argument(help: "The run's id, or a unique start of it.")
    var id: String

    @Flag(help: "Print the run as JSON.")
    var json = false

    func run() async throws {
      let context = SessionContext.current
      let found =
        try RunsCommand.history(context).map { history in
          try RunsCommand.read(context) { () throws(HistoryError) in try history.runs(idPrefix: id) }
        } ?? []
      guard found.count == 1, let run = found.first else {
        let problem =
          found.isEmpty
          ? Diagnostic(.error, .unknownRun, "no run '\(id)'", file: nil).help("run 'flow runs' to list recent runs")
          : found.reduce(
            Diagnostic(.error, .ambiguousRun, "'\(id)' starts the ids of several runs", file: nil)
              .help("give more of the id")
          ) { diagnostic, run in
            diagnostic.note("\(run.id) \(run.workflow), \(LocalTime(context).format(run.started))")
          }
        context.report(Diagnostics([problem]))
        throw ExitCode(ExitStatus.invalid.rawValue)
      }
      if json { return try context.printJSON(RunJSON(run, detailed: true)) }
      context.console.write(RunHistoryText(context).show(run), to: .output)
    }
  }

  /// History, or nil when nothing was ever recorded (reading should not create the file).
  static func history(_ context: SessionContext) throws -> RunHistory? {
    let file = context.paths.history
    guard RunHistory.exists(at: file) else { return nil }
    return try read(context) { () throws(HistoryError) in try RunHistory(file: file) }
  }

  /// Runs `body`, turning a history failure into a diagnostic and the invalid exit status.
  static func read<T>(_ context: SessionContext, _ body: () throws(HistoryError) -> T) throws -> T {
    do {
      return try body()
    } catch {
      context.report(
        Diagnostics([Diagnostic(.error, .historyUnavailable, error.description, file: context.paths.history.path)]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }
}

extension RunStatus: ExpressibleByArgument {}

extension DiagnosticCode {
  /// `flow runs show` was given an id no run has.
  public static let unknownRun: Self = "unknown-run"
  /// `flow runs show` was given the start of several runs' ids.
  public static let ambiguousRun: Self = "ambiguous-run"
  /// `flow runs WORKFLOW` names neither a workflow file nor a workflow with recorded runs.
  public static let unknownWorkflow: Self = "unknown-workflow"
}
