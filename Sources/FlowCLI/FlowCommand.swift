import ArgumentParser

/// The `flow` command: Apple Shortcuts for Linux.
public struct FlowCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "flow",
    abstract: "Run workflows of chained actions, like Apple Shortcuts.",
    subcommands: []
  )

  public init() {}
}
