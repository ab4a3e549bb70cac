import ArgumentParser
import FlowDiagnostics

/// The `flow` command: Apple Shortcuts for Linux.
public struct FlowCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "flow",
    abstract: "Run workflows of chained actions, like Apple Shortcuts.",
    discussion: """
      Exit status: \(ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")).
      """,
    version: "0.1.0",
    subcommands: [
      RunCommand.self,
      DoCommand.self,
      RunsCommand.self,
      AuthCommand.self,
      ValidateCommand.self,
      ShowCommand.self,
      ListCommand.self,
      NewCommand.self,
      RemoveCommand.self,
      ExportCommand.self,
      ImportCommand.self,
      KeysCommand.self,
      ActionsCommand.self,
      SchemaCommand.self,
      ScheduleCommand.self,
      CompletionsCommand.self,
      ManualCommand.self,
    ]
  )

  public init() {}

  /// Runs flow with `arguments` in `context` and returns the exit status; the executable's whole job.
  ///
  /// Usage errors, which ArgumentParser reports as 64, become ``ExitStatus/invalid``: nothing ran. They
  /// are printed as diagnostics, like every other problem.
  public static func main(arguments: [String], context: CLIContext) async -> Int32 {
    guard context.handlesInterrupts else { return await execute(arguments, context) }
    return await Interrupts.cancellingOnInterrupt(console: context.console) { await execute(arguments, context) }
  }

  private static func execute(_ arguments: [String], _ context: CLIContext) async -> Int32 {
    await CLIContext.$current.withValue(context) {
      do {
        var command = try parseAsRoot(arguments)
        if var asyncCommand = command as? any AsyncParsableCommand {
          try await asyncCommand.run()
        } else {
          try command.run()
        }
        return ExitStatus.success.rawValue
      } catch {
        let code = exitCode(for: error).rawValue
        if code == 0 {
          // Help, the version, completion scripts and completions: what was asked for, on standard output.
          let message = fullMessage(for: error)
          if !message.isEmpty { context.print(message) }
          return code
        }
        if let diagnostic = UsageProblems.diagnostic(for: error, arguments: arguments) {
          context.report(Diagnostics([diagnostic]))
        }
        return code == 64 ? ExitStatus.invalid.rawValue : code
      }
    }
  }
}
