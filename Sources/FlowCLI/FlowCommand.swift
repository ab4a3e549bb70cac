import ArgumentParser
import FlowCron
import FlowDiagnostics
import FlowSession
import FlowSystem
import FoundationEssentials
import Glibc

/// The `flow` command: Apple Shortcuts for Linux.
public struct FlowCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "flow",
    abstract: "Run workflows of chained actions, like Apple Shortcuts.",
    discussion: """
      Exit status: \(ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")).
      """,
    version: version,
    subcommands: [
      RunCommand.self,
      DoCommand.self,
      RunsCommand.self,
      AuthCommand.self,
      SecretsCommand.self,
      ValidateCommand.self,
      ShowCommand.self,
      ListCommand.self,
      NewCommand.self,
      RemoveCommand.self,
      LauncherCommand.self,
      ExportCommand.self,
      ImportCommand.self,
      KeysCommand.self,
      ServersCommand.self,
      ActionsCommand.self,
      SchemaCommand.self,
      ScheduleCommand.self,
      MCPCommand.self,
      CompletionsCommand.self,
      ManualCommand.self,
    ]
  )

  /// flow's version, apart from `configuration`: `flow --version` prints it without building the
  /// configuration (its help text, 0.4 M instructions).
  static let version = Sharing.flowVersion

  public init() {}

  /// The executable's whole job: runs flow with `arguments` in `context` and exits with its status.
  ///
  /// Not an async main: that starts Dispatch's thread pool at once, and its monitor then wakes the
  /// process every second for as long as it lives. The scheduler sleeps for hours between fires, so
  /// `flow schedule` runs here, on the main thread, with neither Dispatch nor Swift concurrency started.
  /// Every other command runs as a task whose jobs the main thread runs (MainThreadExecutor), while a
  /// thread of its own takes Ctrl-C and SIGTERM (Interrupts).
  public static func start(arguments: [String], context makeContext: @autoclosure () -> SessionContext) -> Never {
    let context = makeContext()
    // Parsed once: building the command tree is most of flow's start-up (ArgumentParser reflects over
    // the commands, and each new cast scans every protocol conformance in the binary).
    let parsed = Parsed(arguments, context)
    if case .command(let command) = parsed, let scheduler = command as? ScheduleRunCommand {
      Glibc.exit(
        SessionContext.$current.withValue(context) { status(arguments) { try scheduler.runOnThisThread() } })
    }
    // Before any other thread starts: every thread then has Ctrl-C and SIGTERM blocked, for the one that
    // serves them to take (Interrupts).
    if context.handlesInterrupts {
      Interrupts.block()
      let console = context.console
      Interrupts.serve(exitStatus: ExitStatus.cancelled.rawValue) { console.write("\ncancelled\n", to: .error) }
    }
    MainThreadExecutor.install()
    Task { Glibc.exit(await main(parsed, arguments: arguments, context: context)) }
    MainThreadExecutor.run()
  }

  /// Answers `flow --version` and exits, if that is the whole command line (`argc` and `argv` as the
  /// process got them); returns otherwise, and the executable goes on to ``start(arguments:context:)``.
  ///
  /// The first thing the executable does, before anything is set up: the answer is one constant. The
  /// arguments are looked at in place, as C strings: making `CommandLine.arguments` (an array of
  /// `String`s, and its generic metadata) and the environment (whose first `[String: String]` scans
  /// every protocol conformance in the binary) cost more than the rest of the answer.
  public static func answerVersion(argc: Int32, argv: UnsafePointer<UnsafeMutablePointer<CChar>?>) {
    guard argc == 2, let argument = argv[1], strcmp(argument, "--version") == 0 else { return }
    StandardConsole().write(version + "\n", to: .output)
    Glibc.exit(ExitStatus.success.rawValue)
  }

  /// Runs flow with `arguments` in `context` and returns the exit status.
  ///
  /// Usage errors, which ArgumentParser reports as 64, become ``ExitStatus/invalid``: nothing ran. They
  /// are printed as diagnostics, like every other problem.
  public static func main(arguments: [String], context: SessionContext) async -> Int32 {
    await main(Parsed(arguments, context), arguments: arguments, context: context)
  }

  /// The command line, parsed once, on its way from the main thread to the task that runs it. Not a
  /// `Result<any ParsableCommand, any Error>`: that type's first use cost a conformance scan.
  private enum Parsed: @unchecked Sendable {
    // Unchecked: a parsed command is a plain value that only the one task running it ever touches.
    case run(RunRequest)
    case command(any ParsableCommand)
    case failure(any Error)

    init(_ arguments: [String], _ context: SessionContext) {
      let arguments = RunCommand.spelled(arguments)
      self = SessionContext.$current.withValue(context) {
        if let run = RunCommand.parsedDirectly(arguments) { return .run(run) }
        if let validate = ValidateCommand.parsedDirectly(arguments) { return .command(validate) }
        do {
          return .command(try FlowCommand.parseAsRoot(arguments))
        } catch {
          return .failure(error)
        }
      }
    }
  }

  private static func main(_ parsed: Parsed, arguments: [String], context: SessionContext) async -> Int32 {
    guard context.handlesInterrupts else { return await execute(parsed, arguments, context) }
    return await Interrupts.cancellingOnInterrupt {
      await execute(parsed, arguments, context)
    }
  }

  private static func execute(_ parsed: Parsed, _ arguments: [String], _ context: SessionContext) async -> Int32 {
    await SessionContext.$current.withValue(context) {
      do {
        switch parsed {
        case .run(let request): try await request.run()
        case .failure(let error): throw error
        case .command(var command):
          // `flow run` first, by its type: the cast to a protocol below scans every conformance in the
          // binary the first time it meets a type (0.5 M instructions).
          if let run = command as? RunCommand {
            try await run.run()
          } else if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
          } else {
            try command.run()
          }
        }
        return ExitStatus.success.rawValue
      } catch {
        return status(of: error, arguments: arguments, context)
      }
    }
  }

  /// The exit status of `body`, its error reported.
  private static func status(_ arguments: [String], _ body: () throws -> Void) -> Int32 {
    do {
      try body()
      return ExitStatus.success.rawValue
    } catch {
      return status(of: error, arguments: arguments, SessionContext.current)
    }
  }

  /// The exit status an error ends flow with; help and the like printed, usage errors reported as
  /// diagnostics.
  private static func status(of error: any Error, arguments: [String], _ context: SessionContext) -> Int32 {
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
