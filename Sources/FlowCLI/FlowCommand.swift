import ArgumentParser

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
    ]
  )

  public init() {}

  /// Runs flow with `arguments` in `context` and returns the exit status; the executable's whole job.
  ///
  /// Usage errors, which ArgumentParser reports as 64, become ``ExitStatus/invalid``: nothing ran.
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
        let message = fullMessage(for: error)
        if !message.isEmpty {
          context.console.write(message + "\n", to: code == 0 ? .output : .error)
        }
        return code == 64 ? ExitStatus.invalid.rawValue : code
      }
    }
  }
}
