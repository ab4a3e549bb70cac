import ArgumentParser
import FlowCron
import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowScheduler
import FlowSession
import FoundationEssentials

/// `flow schedule next WORKFLOW…`: the next fire times, in ISO 8601 with the zone's offset.
struct ScheduleNextCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "next",
    abstract: "Print the next fire times of scheduled workflows.",
    discussion: """
      One time per line, in ISO 8601 with the offset of the schedule's zone. Several expressions in one \
      workflow make one ordered stream. With several workflows, each list follows a 'PATH:' line. \
      Without WORKFLOW, every scheduled workflow of the library: what 'flow schedule' runs. --json \
      prints an array with an object per workflow and, for each fire, the expressions that fire.
      """
  )

  @Argument(
    help: "The workflows: paths or names, found as 'flow run' finds them. Default: the library's.",
    completion: Completions.workflow)
  var workflows: [String] = []

  // Unconditional, so that `--count -1` reaches validate() rather than read as a missing value.
  @Option(parsing: .unconditional, help: "How many fire times to print per workflow.")
  var count = 5

  @Option(
    help: ArgumentHelp("Start after this time (ISO 8601; without an offset, UTC). Default: now.", valueName: "TIME"))
  var from: String?

  @Flag(help: "Print the fire times as JSON on standard output.")
  var json = false

  func validate() throws {
    guard (1...100_000).contains(count) else { throw ValidationError("--count must be 1–100000") }
    if let from, DateParsing.parse(from) == nil {
      throw ValidationError("--from '\(from)' is not an ISO 8601 time such as 2027-03-28T09:00:00+01:00")
    }
  }

  func run() async throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    let start = from.flatMap(DateParsing.parse) ?? context.clock.now
    var problems = Diagnostics()
    var reports: [Report] = []
    // Without names, what the scheduler runs.
    let everyScheduled = workflows.isEmpty
    for candidate in context.scheduledWorkflows(named: workflows, library: everyScheduled, locator: locator) {
      switch candidate.loaded {
      case .failure(let error): problems.append(contentsOf: error.diagnostics)
      case .success(let loaded):
        let entries = loaded.schedule.entries
        reports.append(
          Report(
            workflow: loaded.workflow.name, path: loaded.workflow.file.path,
            fires: loaded.schedule.fires(after: start, count: count).map { fire in
              Report.Fire(
                time: fire.iso8601,
                expressions: fire.entries.map {
                  Report.Expression(cron: entries[$0].expression.text, timezone: entries[$0].zoneName)
                })
            }))
      }
    }
    if !problems.isEmpty { context.report(problems) }
    if everyScheduled, reports.isEmpty, !problems.hasErrors {
      context.console.write("no workflow in \(locator.libraryDirectory.path) has a schedule\n", to: .error)
    }
    if json {
      try context.printJSON(reports)
    } else {
      for (index, report) in reports.enumerated() {
        if reports.count > 1 || everyScheduled { context.print((index > 0 ? "\n" : "") + "\(report.path):") }
        for fire in report.fires { context.print(fire.time) }
      }
    }
    if problems.hasErrors { throw ExitCode(ExitStatus.invalid.rawValue) }
  }

  private struct Report: Encodable {
    var workflow: String
    var path: String
    var fires: [Fire]

    struct Fire: Encodable {
      var time: String
      /// The expressions that fire at this time (several when they coincide).
      var expressions: [Expression]
    }

    struct Expression: Encodable {
      var cron: String
      var timezone: String
    }
  }
}
