import Foundation
import Testing

@testable import FlowCLI

/// `flow run` is parsed by `RunCommand` as the root, without the rest of the command tree and without
/// ArgumentParser's completion-script probe (Architecture.md, start-up). Only a plain run takes that
/// path; everything else reaches `flow`'s own parser and reads as it always did.
struct StartupTests {
  @Test func aPlainRunIsParsedByRunItself() throws {
    let run = try #require(
      RunCommand.parsedDirectly(["run", "greet.yml", "--input", "who=x", "--no-history", "--json"]))
    #expect(run.workflow == "greet.yml")
    #expect(run.inputs == ["who=x"])
    #expect(run.recording.noHistory)
    #expect(run.json)
  }

  @Test func everythingElseIsLeftToFlowsParser() {
    for arguments in [
      [], ["runs"], ["validate", "greet.yml"], ["run"], ["run", "--help"], ["run", "-h"], ["run", "--version"],
      ["run", "greet.yml", "--bogus"], ["run", "--generate-completion-script", "bash"],
    ] {
      #expect(RunCommand.parsedDirectly(arguments) == nil, "flow \(arguments)")
    }
  }

  @Test func runsHelpAndErrorsStillNameFlowRun() async {
    let help = await runFlow(["run", "--help"], in: UsageTests.examples)
    #expect(help.status == 0)
    #expect(help.output.contains("USAGE: flow run <workflow>"))
    let version = await runFlow(["run", "--version"], in: UsageTests.examples)
    #expect(version.output == "0.1.0\n")
    let bogus = await runFlow(["run", "greet.yml", "--bogus"], in: UsageTests.examples)
    #expect(bogus.status == 2)
    #expect(bogus.error.hasPrefix("error: unknown option '--bogus'"))
  }
}
