import FlowIntents
import Foundation
import Testing

@testable import FlowCLI
@testable import FlowSession

/// `flow run` is parsed by `RunCommand` as the root, without the rest of the command tree and without
/// ArgumentParser's completion-script probe (Performance.md). Only a plain run takes that
/// path; everything else reaches `flow`'s own parser and reads as it always did.
struct StartupTests {
  @Test func aPlainRunIsParsedByRunItself() throws {
    let run = try #require(
      RunCommand.parsedDirectly(["run", "greet.yml", "--input", "who=x", "--no-history", "--json"]))
    #expect(run.workflow == "greet.yml")
    #expect(run.inputs == ["who=x"])
    #expect(run.noHistory)
    #expect(run.json)
  }

  /// `flow validate FILE…` is read without ArgumentParser, as a plain run is, and reads as ArgumentParser
  /// reads it; with a flag it is parsed by `validate` as the root, and what that cannot parse (`--help`,
  /// a mistake) is left to the whole tree.
  @Test func plainValidatesParseAsArgumentParserParsesThem() throws {
    for files in [["a.yml"], ["a.yml", "sub/b.yml", "greet"], ["validate"], ["run", "json.yml"]] {
      let direct = try #require(ValidateCommand.parsedDirectly(["validate"] + files))
      let parsed = try #require(try ValidateCommand.parseAsRoot(files) as? ValidateCommand)
      #expect(direct.files == parsed.files, "flow validate \(files)")
      #expect(direct.json == parsed.json)
      #expect(direct.lintSecrets == parsed.lintSecrets)
      #expect(direct.allowSecret == parsed.allowSecret)
    }
    let flagged = try #require(ValidateCommand.parsedDirectly(["validate", "a.yml", "--json", "--lint-secrets"]))
    #expect(flagged.files == ["a.yml"])
    #expect(flagged.json && flagged.lintSecrets)
    #expect(ValidateCommand.parsedDirectly(["validate", "--help"]) == nil)
    #expect(ValidateCommand.parsedDirectly(["validate", "a.yml", "--no-such-flag"]) == nil)
    #expect(ValidateCommand.parsedDirectly(["run", "a.yml"]) == nil)
  }

  /// A plain run (a workflow and on/off flags) is read without ArgumentParser, whose reflection is most
  /// of a one-step run's instructions, and reads exactly as ArgumentParser reads it: every combination
  /// of the flags, in both orders around the workflow.
  @Test func plainRunsParseAsArgumentParserParsesThem() throws {
    // The scheduler's own flag goes with the others one at a time, below: in every combination it
    // would double the test's time for the forms only the scheduler writes.
    let flags = RunRequest.plainFlags.subtracting(["--await-trigger"]).sorted()
    // Values as people and scripts give them: separate or attached, repeated, with `=` inside, words
    // that mean something elsewhere.
    let values: [[String]] = [
      [], ["--input", "who=x"], ["--input=who=x"], ["--input", "who=x", "--input", "who=y=z"],
      ["--input", "url=https://swift.org", "--input-file", "inputs.yml"], ["--input-file=in.json", "--input=n=1"],
      ["--input", "help"], ["--input", "run"], ["--input", "=x"], ["--input", "greet.yml"],
      // What crontab lines, systemd units and the scheduler pass.
      ["--trigger", "cron"], ["--trigger=systemd", "--backend", "local"],
      ["--backend=raindrop", "--trigger", "scheduled", "--input", "a=b"], ["--trigger", "catch-up"],
      ["--trigger", "mcp"],
    ]
    func check(_ chosen: [String], _ values: [[String]]) throws {
      for value in values {
        for arguments in [
          ["greet.yml"] + chosen + value, value + chosen + ["greet.yml"], chosen + value + ["greet.yml"],
        ] {
          let plain = try #require(RunRequest.plain(arguments[...]), "flow run \(arguments)")
          let parsed = try #require(try RunCommand.parseAsRoot(arguments) as? RunCommand)
          #expect(plain == parsed.request, "flow run \(arguments)")
        }
      }
    }
    let all = 1 << flags.count
    for subset in 0..<all {
      let chosen = flags.indices.filter { subset & (1 << $0) != 0 }.map { flags[$0] }
      // Every combination of flags with the first two; the rest with none, each one alone, and all.
      let fewer = subset == 0 || subset == all - 1 || subset & (subset - 1) == 0
      try check(chosen, fewer ? values : Array(values.prefix(2)))
    }
    for other in [[], ["--no-input", "--wait"]] + flags.map({ [$0] }) {
      try check(other + ["--await-trigger"], values)
    }
    // Every value the command reads reaches the request: one added to the command or its option groups
    // must be added there too.
    let command = try #require(try RunCommand.parseAsRoot(["greet.yml"]) as? RunCommand)
    let commandValues =
      [Mirror(reflecting: command), Mirror(reflecting: command.options)]
      .map(\.children.count).reduce(0, +) + Mirror(reflecting: command.recording).children.count - 2
    let requestValues =
      Mirror(reflecting: command.request).children.count - 1
      + Mirror(reflecting: command.request.action).children.count
    #expect(commandValues == requestValues)
  }

  @Test func onlyAWorkflowFlagsAndInputsAreReadWithoutArgumentParser() {
    for arguments in [
      [], ["greet.yml", "other.yml"], ["greet.yml", "--json", "--json"], ["greet.yml", "--backend", "cloud"],
      ["greet.yml", "--trigger", "schedule"], ["greet.yml", "--trigger", "cron", "--trigger", "cron"],
      ["greet.yml", "--backend"], ["greet.yml", "--trigger="], ["-"], ["help"], [""], ["greet.yml", "--"],
      ["greet.yml", "-h"],
      ["--json"], ["--input", "who=x"], ["greet.yml", "--input"], ["greet.yml", "--input", ""],
      ["greet.yml", "--input="], ["greet.yml", "--input", "-x"], ["greet.yml", "--input", "--json"],
      ["greet.yml", "--input-file", "a.yml", "--input-file", "b.yml"], ["greet.yml", "--json=true"],
      ["greet.yml", "--inputs", "who=x"], ["greet.yml", "--input-file"],
    ] {
      #expect(RunRequest.plain(arguments[...]) == nil, "flow run \(arguments)")
    }
  }

  /// The executable answers `flow --version` before anything is set up (`FlowCommand.answerVersion`):
  /// the same answer ArgumentParser gives, on standard output, with success.
  @Test func theExecutableAnswersVersionAsTheParserDoes() async throws {
    let process = Process()
    process.executableURL = Machine.executable
    process.arguments = ["--version"]
    process.environment = ["PATH": "/usr/bin:/bin"]
    let output = Pipe(), errors = Pipe()
    (process.standardOutput, process.standardError) = (output, errors)
    try process.run()
    let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let parsed = await Machine.run(["--version"], in: UsageTests.examples)
    #expect(process.terminationStatus == 0)
    #expect(problems == "")
    #expect(answer == "0.1.0\n")
    #expect(answer == parsed.output)
  }

  /// flow reads its environment itself (Foundation's reading was 1.2 M instructions of every command),
  /// and reads what Foundation reads.
  @Test func theEnvironmentIsReadAsFoundationReadsIt() {
    #expect(SessionContext.processEnvironment() == ProcessInfo.processInfo.environment)
    #expect(!SessionContext.processEnvironment().isEmpty)
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
    let help = await Machine.run(["run", "--help"], in: UsageTests.examples)
    #expect(help.status == 0)
    #expect(help.output.contains("USAGE: flow run <workflow>"))
    let version = await Machine.run(["run", "--version"], in: UsageTests.examples)
    #expect(version.output == "0.1.0\n")
    let bogus = await Machine.run(["run", "greet.yml", "--bogus"], in: UsageTests.examples)
    #expect(bogus.status == 2)
    #expect(bogus.error.hasPrefix("error: unknown option '--bogus'"))
  }

  /// Every shipped intent's output type, read where its conformance knows it (`_outputValueType`), is the
  /// one its result type gives when asked at run time, and every parameter's conversions are its value
  /// type's: the catalogue reads them without the casts that made the runtime scan every conformance.
  @Test func outputTypesAreKnownWithoutCasts() {
    func check<I: AppIntent>(_: I.Type) -> Bool { I._outputValueType == I.PerformResult.outputType }
    var (checked, valued) = (0, 0)
    for catalog in Catalogs.all {
      for intent in catalog.intents {
        let known = check(intent)
        #expect(known, "\(intent)")
        checked += 1
        if intent._outputValueType != nil { valued += 1 }
      }
    }
    #expect(checked > 60)
    #expect(valued > 40)
  }

}
