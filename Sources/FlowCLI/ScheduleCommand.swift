import ArgumentParser
import FlowCron
import FlowDiagnostics
import FlowModel
import FlowRuntime
import FlowScheduler
import FlowSession
import FoundationEssentials

/// `flow schedule`: the scheduler (`flow schedule run`, the default); `flow schedule next|explain|install`:
/// when workflows fire, in words, and units for the engines that run schedules.
struct ScheduleCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Run scheduled and triggered workflows when they are due, or show and install schedules.",
    discussion: """
      A workflow's 'schedule:' is cron (five fields, or @hourly … @yearly) in its 'timezone:', else the \
      machine's zone. 'flow schedule' alone runs the scheduler ('flow schedule run'). \
      Documentation/Scheduling.md has the grammar, the daylight-saving rules, and how to run the \
      scheduler as a systemd user service.
      """,
    subcommands: [
      ScheduleRunCommand.self, ScheduleStatusCommand.self, ScheduleNextCommand.self, ScheduleExplainCommand.self,
      ScheduleInstallCommand.self, ScheduleArmCommand.self,
    ],
    defaultSubcommand: ScheduleRunCommand.self
  )
}
