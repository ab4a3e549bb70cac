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

  /// A plain run (a workflow and on/off flags) is read without ArgumentParser, whose reflection is most
  /// of a one-step run's instructions, and reads exactly as ArgumentParser reads it: every combination
  /// of the flags, in both orders around the workflow.
  @Test func plainRunsParseAsArgumentParserParsesThem() throws {
    let flags = RunCommand.plainFlags.sorted()
    for subset in 0..<(1 << flags.count) {
      let chosen = flags.indices.filter { subset & (1 << $0) != 0 }.map { flags[$0] }
      for arguments in [["greet.yml"] + chosen, chosen + ["greet.yml"]] {
        let plain = try #require(RunCommand.plain(arguments[...]), "flow run \(arguments)")
        let parsed = try #require(try RunCommand.parseAsRoot(arguments) as? RunCommand)
        #expect(fields(plain) == fields(parsed), "flow run \(arguments)")
      }
    }
    // Every property is compared: one added to the command or its option groups must be added there too.
    let run = try #require(RunCommand.plain(["greet.yml"]))
    let properties = [Mirror(reflecting: run), Mirror(reflecting: run.options), Mirror(reflecting: run.recording)]
      .map(\.children.count).reduce(0, +)
    #expect(properties - 2 == fields(run).count)
  }

  @Test func onlyAWorkflowAndOnOffFlagsAreReadWithoutArgumentParser() {
    for arguments in [
      [], ["greet.yml", "other.yml"], ["greet.yml", "--json", "--json"], ["greet.yml", "--input", "who=x"],
      ["greet.yml", "--input=who=x"], ["greet.yml", "--backend", "local"], ["greet.yml", "--trigger", "schedule"],
      ["-"], ["help"], [""], ["greet.yml", "--"], ["greet.yml", "-h"], ["--json"],
    ] {
      #expect(RunCommand.plain(arguments[...]) == nil, "flow run \(arguments)")
    }
  }

  /// Every value a run reads from its command line.
  private func fields(_ run: RunCommand) -> [String] {
    [
      run.workflow, "\(run.inputs)", "\(run.inputFile as Any)", "\(run.dryRun)", "\(run.json)", "\(run.options.yes)",
      "\(run.options.noInput)", "\(run.options.backend as Any)", run.recording.trigger.rawValue,
      "\(run.recording.noHistory)", "\(run.recording.wait)",
    ]
  }

  /// flow reads its environment itself (Foundation's reading was 1.2 M instructions of every command),
  /// and reads what Foundation reads.
  @Test func theEnvironmentIsReadAsFoundationReadsIt() {
    #expect(CLIContext.processEnvironment() == ProcessInfo.processInfo.environment)
    #expect(!CLIContext.processEnvironment().isEmpty)
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
