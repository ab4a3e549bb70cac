import FlowCLI
import FlowIntents
import FlowSession
import FlowTestSupport
import Foundation
import Testing

struct ValidateCommandTests {
  static let corpus = testDirectory().appendingPathComponent("Corpus")

  @Test func corpusIsComplete() throws {
    #expect(try listing(of: Self.corpus).count == 12)
  }

  /// Every bad file prints SPEC §4's diagnostics and exits with the invalid-workflow status.
  @Test(arguments: try listing(of: corpus))
  func badFileGolden(name: String) async {
    let result = await Machine.run(["validate", name], in: Self.corpus)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/\(name.dropLast(4)).txt")
  }

  @Test func tenThousandDeepNesting() async throws {
    let directory = try temporaryDirectory()
    let deep = "flow: 1\nsteps: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"
    try deep.write(to: directory.appendingPathComponent("deep.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["validate", "deep.yml"], in: directory)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/deep-nesting.txt")
  }

  @Test func twentyMegabyteScalar() async throws {
    let directory = try temporaryDirectory()
    var text = "flow: 1\nname: Big\nnote: \""
    text += String(repeating: "x", count: 20_000_000)
    text += "\"\nsteps: []\n"
    try text.write(to: directory.appendingPathComponent("huge.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["validate", "huge.yml"], in: directory)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/huge-scalar.txt")
  }

  /// `flow validate NAME` finds what `flow run NAME` finds: the library, then ./workflows.
  @Test func namesAreFoundAsRunFindsThem() async throws {
    let directory = try temporaryDirectory()
    let library = directory.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("workflows"), withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - show: from the library\n".write(
      to: library.appendingPathComponent("mine.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nsteps:\n  - shwo: here\n".write(
      to: directory.appendingPathComponent("workflows/local.yml"), atomically: true, encoding: .utf8)
    let environment = ["NO_COLOR": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path]
    let found = await Machine.run(["validate", "mine"], in: directory, environment: environment)
    #expect(found.status == 0)
    #expect(found.output == "mine: valid\n")
    let broken = await Machine.run(["validate", "local"], in: directory, environment: environment)
    #expect(broken.status == 2)
    #expect(broken.error.hasPrefix("workflows/local.yml:3:5: error: unknown action 'shwo'"))
  }

  /// A workflow that another one runs is invalid on its own too, and its problems are printed once.
  @Test func aWorkflowRunByAnotherIsReportedOnce() async throws {
    let directory = try temporaryDirectory()
    try "flow: 1\nsteps:\n  - run-workflow: child.yml\n".write(
      to: directory.appendingPathComponent("parent.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nsteps:\n  - shwo: x\n".write(
      to: directory.appendingPathComponent("child.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(["validate", "parent.yml", "child.yml"], in: directory)
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(result.error.components(separatedBy: "unknown action 'shwo'").count == 2)
    #expect(result.error.hasSuffix("found 2 errors\n"))
    let json = await Machine.run(["validate", "--json", "parent.yml", "child.yml"], in: directory)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let files = try #require(report["files"] as? [[String: Any]])
    #expect(files.map { $0["valid"] as? Bool } == [false, false])
    #expect(files.map { ($0["diagnostics"] as? [Any])?.count } == [2, 1])
  }

  @Test func validFilesPassAndAreListed() async {
    let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL
    let result = await Machine.run(["validate", "hello.yml", "menu.yml"], in: examples)
    #expect(result.status == 0)
    #expect(result.output == "hello.yml: valid\nmenu.yml: valid\n")
    #expect(result.error == "")
  }

  @Test func missingFileIsReportedAndOthersStillChecked() async {
    let result = await Machine.run(["validate", "nope.yml", "empty.yml"], in: Self.corpus)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "validate/missing-file.txt")
  }

  @Test func jsonOutputCarriesEveryDiagnostic() async throws {
    let result = await Machine.run(["validate", "--json", "duplicate-key.yml"], in: Self.corpus)
    #expect(result.status == 2)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(report["valid"] as? Bool == false)
    let files = try #require(report["files"] as? [[String: Any]])
    let diagnostic = try #require((files.first?["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["code"] as? String == "duplicate-key")
    #expect(diagnostic["line"] as? Int == 5)
    #expect(diagnostic["column"] as? Int == 1)
    #expect(diagnostic["endColumn"] as? Int == 5)
    let note = try #require((diagnostic["notes"] as? [[String: Any]])?.first)
    #expect(note["line"] as? Int == 2)
    assertGolden(result.output, named: "validate/json.txt")
  }

  @Test func colourOnlyOnATerminalWithoutNoColor() async {
    let coloured = await Machine.run(
      ["validate", "duplicate-key.yml"], in: Self.corpus, environment: [:], terminal: true)
    #expect(coloured.error.contains("\u{1B}[1;31merror\u{1B}[0m"))
    let noColor = await Machine.run(["validate", "duplicate-key.yml"], in: Self.corpus, terminal: true)
    #expect(!noColor.error.contains("\u{1B}["))
    let piped = await Machine.run(
      ["validate", "duplicate-key.yml"], in: Self.corpus, environment: [:], terminal: false)
    #expect(!piped.error.contains("\u{1B}["))
  }

  /// no-color.org: only a non-empty NO_COLOR turns colour off; a dumb terminal gets none, on either stream.
  @Test func anEmptyNoColorKeepsColourAndADumbTerminalGetsNone() async throws {
    let empty = await Machine.run(
      ["validate", "duplicate-key.yml"], in: Self.corpus, environment: ["NO_COLOR": ""], terminal: true)
    #expect(empty.error.contains("\u{1B}[1;31merror\u{1B}[0m"))
    let dumb = await Machine.run(
      ["validate", "duplicate-key.yml"], in: Self.corpus, environment: ["TERM": "dumb"], terminal: true)
    #expect(!dumb.error.contains("\u{1B}["))
    #expect(dumb.error.contains("error: duplicate key"), "\(dumb.error)")
    let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL
    let shown = await Machine.run(["show", "if-else.yml"], in: examples, environment: ["TERM": "dumb"], terminal: true)
    #expect(shown.status == 0)
    #expect(!shown.output.contains("\u{1B}["))
    let shownEmpty = await Machine.run(
      ["show", "if-else.yml"], in: examples, environment: ["NO_COLOR": ""], terminal: true)
    #expect(shownEmpty.output.contains("\u{1B}["))
  }

  @Test func versionAndHelpGoToStandardOutputAndSucceed() async {
    let version = await Machine.run(["--version"], in: Self.corpus)
    #expect(version.status == 0)
    #expect(version.output == "0.1.0\n")
    let help = await Machine.run(["--help"], in: Self.corpus)
    #expect(help.status == 0)
    #expect(help.output.contains("USAGE: flow <subcommand>"))
    #expect(help.error == "")
  }

  @Test func usageErrorsExitWithTheInvalidStatus() async {
    let result = await Machine.run(["validate"], in: Self.corpus)
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("error: missing expected argument '<files> ...'\n"))
  }
}
