import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// `flow run`'s inputs, errors and JSON, beyond the example goldens.
struct RunCommandTests {
  static let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL

  @Test func pipedStandardInputFillsTheSingleInput() async {
    let result = await Machine.run(["run", "greet.yml"], in: Self.examples, piped: "Linus\n")
    #expect(result.status == 0)
    #expect(result.output == "Hello, Linus!\n")
  }

  /// A list input takes a pipe one item per line (issue 14, item 9): spaces around a line, blank lines and
  /// `\r\n` line ends are not part of any item.
  @Test func pipedStandardInputFillsAListInputOneItemPerLine() async throws {
    let directory = try temporaryDirectory()
    try """
    flow: 1
    input:
      links:
        type: "[text]"
    steps:
      - for-each: ${input.links}
        as: link
        do:
          - show: "${index}: <${link}>"
    """.write(to: directory.appendingPathComponent("links.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(
      ["run", "links.yml"], in: directory, piped: "https://a.example\n\n  https://b.example \r\nc d\n\n")
    #expect(result.status == 0)
    #expect(result.output == "1: <https://a.example>\n2: <https://b.example>\n3: <c d>\n")
  }

  @Test func inputFileGivesTypedValuesAndInputWins() async throws {
    let directory = try temporaryDirectory()
    try "temperature: 30\n".write(to: directory.appendingPathComponent("in.yml"), atomically: true, encoding: .utf8)
    let workflow = Self.examples.appendingPathComponent("if-else.yml").path
    let fromFile = await Machine.run(["run", workflow, "--input-file", "in.yml"], in: directory)
    #expect(fromFile.output == "It is hot at 30°.\n")
    let overridden = await Machine.run(
      ["run", workflow, "--input-file", "in.yml", "--input", "temperature=5"], in: directory)
    #expect(overridden.output == "It is cold at 5°.\n")
  }

  @Test func inputsAreTypedByTheirDeclaration() async {
    let result = await Machine.run(["run", "if-else.yml", "--input", "temperature=warm"], in: Self.examples)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "run/input-wrong-type.txt")
  }

  @Test func unknownAndMalformedInputs() async {
    let unknown = await Machine.run(["run", "greet.yml", "--input", "whom=Ada"], in: Self.examples)
    #expect(unknown.status == 2)
    #expect(unknown.error.contains("error: 'Greet' has no input 'whom'"))
    #expect(unknown.error.contains("= help: did you mean 'who'?"))
    let malformed = await Machine.run(["run", "greet.yml", "--input", "Ada"], in: Self.examples)
    #expect(malformed.status == 2)
    #expect(malformed.error.contains("error: '--input Ada' is not NAME=VALUE"))
  }

  @Test func workflowsAreFoundByNameInTheLibraryAndInWorkflows() async throws {
    let directory = try temporaryDirectory()
    // The library is data, not configuration: $XDG_DATA_HOME/flow/workflows (issues 8 and 9).
    let library = directory.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - show: from the library\n".write(
      to: library.appendingPathComponent("mine.yml"), atomically: true, encoding: .utf8)
    let environment = ["NO_COLOR": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path]
    let result = await Machine.run(["run", "mine"], in: directory, environment: environment)
    #expect(result.output == "from the library\n")
    let missing = await Machine.run(["run", "nothing-here"], in: directory, environment: environment)
    #expect(missing.status == 2)
    #expect(missing.error.contains("no workflow named 'nothing-here'"))
  }

  /// A path is looked for where it says: run from another folder, it is "no such file" there, never "no
  /// workflow named" it (which tells a person who gave a path to give one).
  @Test func aMissingPathSaysWhereItWasLookedFor() async throws {
    let directory = try temporaryDirectory().resolvingSymlinksInPath()
    let library = directory.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - show: from the library\n".write(
      to: library.appendingPathComponent("empty-trash.yml"), atomically: true, encoding: .utf8)
    let environment = ["NO_COLOR": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path]
    var transcripts: [String] = []
    for arguments in [["run", "workflows/empty-trash.yml"], ["validate", "other/../elsewhere/bulk-tag.yml"]] {
      let result = await Machine.run(arguments, in: directory, environment: environment)
      #expect(result.status == 2)
      transcripts.append("$ flow \(arguments.joined(separator: " "))\n" + transcript(result))
    }
    assertGolden(
      transcripts.joined(separator: "\n").replacingOccurrences(of: directory.path, with: "$DIR"),
      named: "run/missing-path.txt")
  }

  @Test func jsonReportsFailuresToo() async throws {
    let result = await Machine.run(["run", "confirmation.yml", "--json"], in: Self.examples)
    #expect(result.status == 4)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(report["status"] as? String == "needs-input")
    #expect(report["exitCode"] as? Int == 4)
    let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["code"] as? String == "input-needed")
    #expect(result.error == "")
  }

  @Test func noInputNeverReadsStandardInput() async {
    // Lines are waiting, but --no-input must not consume them.
    let result = await Machine.run(
      ["run", "prompts.yml", "--no-input"], in: Self.examples, terminal: true, lines: ["Ada"])
    #expect(result.status == 4)
    #expect(!result.error.contains("Ada"))
  }

  /// A repeated `--input` adds an item to a list input; a value with a comma stays one item; any other
  /// input takes the last value given.
  @Test func listInputsFromTheCommandLine() async throws {
    let directory = try temporaryDirectory()
    try """
    flow: 1
    input:
      tags:
        type: "[text]"
      title: text
    steps:
      - show: "${input.tags.count} tags: ${input.tags}; title ${input.title}"
    """.write(to: directory.appendingPathComponent("tags.yml"), atomically: true, encoding: .utf8)
    try "tags: [c, d]\ntitle: t\n".write(
      to: directory.appendingPathComponent("in.yml"), atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      (
        ["--input", "tags=a", "--input", "tags=b", "--input", "title=x", "--input", "title=y"], "2 tags: a, b; title y"
      ),
      (["--input", "tags=a,b", "--input", "title=x"], "1 tags: a,b; title x"),
      (["--input-file", "in.yml"], "2 tags: c, d; title t"),
      (["--input-file", "in.yml", "--input", "tags=e"], "1 tags: e; title t"),
    ]
    for (arguments, expected) in cases {
      let result = await Machine.run(["run", "tags.yml"] + arguments, in: directory)
      #expect(result.status == 0, "\(arguments): \(result.error)")
      #expect(result.output == expected + "\n", "\(arguments)")
    }
  }

  /// `--json`: the backend by name and why, the last output without `stop`, an id per loop pass.
  @Test func jsonReportNamesTheBackendAndEveryPass() async throws {
    let machine = try RaindropWorkflowTests.machine()
    try """
    flow: 1
    steps:
      - get-bookmarks: nothing
      - repeat: 2
        do:
          - show: pass ${index}
      - text: done
    """.write(to: machine.home.appendingPathComponent("loops.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["run", "loops.yml", "--json"], in: machine.home, environment: machine.environment)
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "run/json-loops.txt")
  }

  /// An allow-listed variable that is not set says so, and how to set it.
  @Test func unsetEnvironmentVariable() async throws {
    let directory = try temporaryDirectory()
    try "flow: 1\nenv: [FLOW_TEST_UNSET]\nsteps:\n  - show: key ${env.FLOW_TEST_UNSET}\n".write(
      to: directory.appendingPathComponent("env.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["run", "env.yml"], in: directory)
    #expect(result.status == 1)
    assertGolden(transcript(result), named: "run/env-unset.txt")
  }
}
