import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// Every example validates and runs as its golden says; every invalid example reports its problems.
struct ExampleTests {
  static let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL
  static let invalid = examples.appendingPathComponent("invalid")

  /// How each example runs in its golden: arguments, whether at a terminal, and what the person types.
  struct Run: Sendable, CustomTestStringConvertible {
    var example: String
    var variant: String
    var arguments: [String] = []
    var terminal = false
    var lines: [String] = []
    var expectedStatus: Int32 = 0

    var testDescription: String { "\(example) (\(variant))" }
  }

  static let runs: [Run] = [
    Run(example: "hello", variant: "run"),
    Run(example: "magic-variables", variant: "run"),
    Run(example: "coercion", variant: "run"),
    Run(example: "if-else", variant: "run"),
    Run(example: "if-else", variant: "hot", arguments: ["--input", "temperature=31"]),
    Run(example: "repeat", variant: "run"),
    Run(example: "for-each", variant: "run"),
    Run(example: "variables", variant: "run"),
    Run(example: "menu", variant: "terminal", terminal: true, lines: ["1"]),
    Run(example: "menu", variant: "unattended"),
    Run(example: "prompts", variant: "terminal", terminal: true, lines: ["Ada", "lots", "2", "5", "coffee"]),
    Run(example: "prompts", variant: "unattended", expectedStatus: 4),
    Run(
      example: "prompts", variant: "no-input", arguments: ["--no-input", "--input", "name=Ada"], terminal: true,
      expectedStatus: 4),
    Run(example: "confirmation", variant: "yes-at-terminal", terminal: true, lines: ["y"]),
    Run(example: "confirmation", variant: "declined", terminal: true, lines: ["n"], expectedStatus: 3),
    Run(example: "confirmation", variant: "unattended", expectedStatus: 4),
    Run(example: "confirmation", variant: "with-yes", arguments: ["--yes"]),
    Run(example: "dry-run", variant: "dry-run", arguments: ["--dry-run"]),
    Run(example: "confirm-and-stop", variant: "with-yes", arguments: ["--yes"]),
    Run(example: "confirm-and-stop", variant: "unattended", expectedStatus: 4),
    Run(example: "run-workflow", variant: "run"),
    Run(example: "run-shell", variant: "run"),
    Run(example: "run-shell", variant: "dry-run", arguments: ["--dry-run"]),
    Run(example: "greet", variant: "run", arguments: ["--input", "who=Grace"]),
    Run(example: "greet", variant: "json", arguments: ["--input", "who=Grace", "--json"]),
    Run(example: "on-error", variant: "run"),
    Run(example: "on-error", variant: "json", arguments: ["--json"]),
    Run(example: "on-error", variant: "shared", arguments: ["--input", "people=3"]),
    Run(example: "on-failure", variant: "run", expectedStatus: 1),
    Run(example: "on-failure", variant: "succeeds", arguments: ["--input", "people=3"]),
    Run(example: "on-failure", variant: "json", arguments: ["--json"], expectedStatus: 1),
  ]

  @Test func everyExampleHasARunGolden() throws {
    let covered = Set(Self.runs.map(\.example))
    for file in try listing(of: Self.examples) {
      #expect(covered.contains(String(file.dropLast(4))), "\(file) has no run in ExampleTests.runs")
    }
  }

  @Test(arguments: try listing(of: examples))
  func validates(file: String) async {
    let result = await Machine.run(["validate", file], in: Self.examples)
    #expect(result.status == 0)
    #expect(result.error == "")
  }

  @Test(arguments: runs)
  func runMatchesGolden(run: Run) async {
    let result = await Machine.run(
      ["run", run.example + ".yml"] + run.arguments, in: Self.examples, terminal: run.terminal, lines: run.lines)
    #expect(result.status == run.expectedStatus)
    assertGolden(transcript(result), named: "examples/\(run.example).\(run.variant).txt")
  }

  @Test(arguments: try listing(of: invalid))
  func invalidExampleDiagnostics(file: String) async {
    let result = await Machine.run(["validate", file], in: Self.invalid)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "examples/invalid/\(file.dropLast(4)).txt")
  }

  /// A workflow that runs a broken one is invalid as a whole: nothing runs, not even its first step,
  /// which would have saved a bookmark.
  @Test func runRefusesAWorkflowWhoseNestedWorkflowIsBroken() async throws {
    let directory = try temporaryDirectory()
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - save-bookmark: https://example.com\n  - run-workflow: sub/broken.yml\n".write(
      to: directory.appendingPathComponent("parent.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nsteps:\n  - shwo: x\n".write(
      to: directory.appendingPathComponent("sub/broken.yml"), atomically: true, encoding: .utf8)
    let environment = [
      "NO_COLOR": "1", "HOME": directory.path, "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
    ]
    let result = await Machine.run(["run", "parent.yml"], in: directory, environment: environment)
    #expect(result.status == 2)
    #expect(result.error.contains("parent.yml:4:19: error: 'sub/broken.yml' is invalid, so this step cannot run"))
    #expect(result.error.contains("sub/broken.yml:3:5: error: unknown action 'shwo'"))
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data").path))
  }

  /// `flow run` checks the whole file first: an invalid workflow runs no step at all.
  @Test func runRefusesAnInvalidWorkflowBeforeAnyStep() async {
    let result = await Machine.run(["run", "invalid/structure.yml"], in: Self.examples)
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(result.error.contains("found 6 errors"))
  }
}
