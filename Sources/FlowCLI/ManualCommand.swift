import ArgumentParser
import FlowSession
import FoundationEssentials

/// `flow manual`: the man page, `flow.1`, generated from the command definitions (``ManualPage``).
struct ManualCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "manual",
    abstract: "Print flow's man page (flow.1).",
    discussion: """
      Read it with 'flow manual | man -l -', or install it:
        flow manual > ~/.local/share/man/man1/flow.1
      """
  )

  func run() throws {
    let context = SessionContext.current
    let date = context.clock.now.formatted(.iso8601.year().month().day())
    context.print(try ManualPage.render(dump: FlowCommand._dumpHelp(), date: date))
  }
}
