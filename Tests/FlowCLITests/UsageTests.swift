import ArgumentParser
import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// A wrong command line is told like any other problem: `error:` lines from the one renderer, with the
/// usage as help, and exit status 2.
struct UsageTests {
  static let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL

  @Test func usageErrorsAreDiagnostics() async {
    var transcripts = ""
    for arguments in [
      ["rn", "hello.yml"], ["auth", "lgin"], ["frobnicate"], ["validate"], ["actions", "--bogus"],
      ["do", "--backend", "foo", "search", "raindrop"], ["completions", "tcsh"],
    ] {
      let result = await Machine.run(arguments, in: Self.examples)
      #expect(result.status == 2, "flow \(arguments)")
      #expect(result.output == "")
      #expect(result.error.hasPrefix("error: "), "flow \(arguments)")
      transcripts += "$ flow \(arguments.joined(separator: " "))\n" + transcript(result) + "\n"
    }
    assertGolden(transcripts, named: "help/usage-errors.txt")
  }

  @Test func misspelledSubcommandsSuggestTheClosest() async {
    let run = await Machine.run(["rn", "hello.yml"], in: Self.examples)
    #expect(run.error.hasPrefix("error: unknown command 'rn'\n      = help: did you mean 'run'?\n"))
    let nested = await Machine.run(["auth", "stauts"], in: Self.examples)
    #expect(nested.error.contains("= help: did you mean 'status'?"))
    #expect(nested.error.contains("= help: see 'flow auth --help' for more information"))
    // Under a default subcommand the word may be an argument ('flow runs WORKFLOW'); on a command line
    // that fails, one that nearly names a sibling is a typo.
    let runs = await Machine.run(["runs", "shw", "1234"], in: Self.examples)
    #expect(runs.status == 2)
    #expect(runs.error.hasPrefix("error: unknown command 'shw'\n      = help: did you mean 'show'?\n"))
    let other = await Machine.run(["runs", "digest", "1234"], in: Self.examples)
    #expect(other.error.hasPrefix("error: unexpected argument '1234'"))
  }

  @Test func optionValuesAreNotTakenForSubcommands() async {
    // `--version` is a flag; a word after an option is ArgumentParser's to judge, not a misspelt command.
    let result = await Machine.run(["run", "--input", "who=x", "greet.yml"], in: Self.examples)
    #expect(result.status == 0)
    #expect(result.output == "Hello, x!\n")
  }

  /// ArgumentParser derives a missing command name from the type's name with `String(describing:)`,
  /// whose casts scan every protocol conformance in the binary: 16 % of start-up when nine subcommands
  /// relied on it. Every command names itself.
  @Test func everyCommandNamesItself() {
    var unnamed: [String] = []
    func visit(_ command: any ParsableCommand.Type) {
      if command.configuration.commandName == nil { unnamed.append("\(command)") }
      command.configuration.subcommands.forEach(visit)
    }
    visit(FlowCommand.self)
    #expect(unnamed.isEmpty)
  }
}
