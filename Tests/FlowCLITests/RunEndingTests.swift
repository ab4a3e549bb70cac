import FlowTestSupport
import Foundation
import Testing

/// How a run ends and what it asks on the way (issue 30 items 3 and 5): a line saying what the run
/// made when it showed nothing, a confirmation in words, `keep-both` into the folder a file is in, and a
/// dry run that contacts no host unless asked.
struct RunEndingTests {
  static func run(_ workflow: String, _ arguments: [String] = [], terminal: Bool = false, lines: [String] = [])
    async throws -> (Machine, Machine.Result)
  {
    let machine = try Machine()
    try machine.write("w.yml", workflow)
    let result = await machine.run(["run", "w.yml"] + arguments, terminal: terminal, lines: lines)
    return (machine, result)
  }

  /// A workflow that ends in `run-shell`, `list` or a long text and shows nothing says what it made, in
  /// one line; one that showed something, or `--json`, adds nothing.
  @Test func aRunThatShowedNothingEndsWithItsResult() async throws {
    var transcript = ""
    for (name, workflow) in [
      ("run-shell", "flow: 1\nsteps:\n  - run-shell: {script: echo 'backed up 12 files'}\n"),
      ("list", "flow: 1\nsteps:\n  - list: [alpha, beta, gamma]\n"),
      (
        "long text",
        "flow: 1\nsteps:\n  - text: \"\\e[2J\(String(repeating: "word ", count: 40))\\nsecond line\\nthird\"\n"
      ),
      ("a number", "flow: 1\nsteps:\n  - calculate: 6 * 7\n"),
      ("nothing", "flow: 1\nsteps:\n  - wait: 0s\n"),
      ("shown", "flow: 1\nsteps:\n  - show: hello\n  - text: not repeated\n"),
    ] {
      let (_, result) = try await Self.run(workflow)
      #expect(result.status == 0, "\(name): \(result.error)")
      transcript += "# \(name)\n" + FlowCLITests.transcript(result) + "\n"
    }
    let (_, json) = try await Self.run("flow: 1\nsteps:\n  - list: [alpha, beta]\n", ["--json"])
    #expect(json.output.hasPrefix("{"))
    #expect(!json.output.contains("a list of"))
    assertGolden(transcript, named: "run/result-line.txt")
  }

  /// Moving a file to the Trash asks in words, counting the files, at the terminal.
  @Test func theConfirmationSpeaksWords() async throws {
    let machine = try Machine()
    for name in ["a.pdf", "b.pdf"] { try machine.write(name, "x") }
    try machine.write(
      "w.yml",
      """
      flow: 1
      steps:
        - get-file: "*.pdf"
        - delete-files: ${previous}

      """)
    let result = await machine.run(["run", "w.yml"], terminal: true, lines: ["n"])
    #expect(result.status == 3)
    #expect(result.error.hasPrefix("Move 2 files to the Trash? [y/N] n\n"), "\(result.error)")
    for name in ["a.pdf", "b.pdf"] {
      #expect(FileManager.default.fileExists(atPath: machine.directory.appendingPathComponent(name).path))
    }
  }

  /// `keep-both` into the folder the file is in numbers a second one, as a file manager's paste does;
  /// without it, the step says so and what would do it.
  @Test func keepBothIntoItsOwnFolderNumbersIt() async throws {
    let machine = try Machine()
    try machine.write("report.pdf", "pdf")
    try machine.write(
      "w.yml",
      """
      flow: 1
      steps:
        - copy-file:
            file: report.pdf
            to: .
            if-exists: keep-both
        - show: ${previous.name}
        - move-file:
            file: report.pdf
            to: .
            if-exists: keep-both
        - show: ${previous.name}

      """)
    let result = await machine.run(["run", "w.yml"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "report 2.pdf\nreport 3.pdf\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: machine.directory.path).filter {
      $0.hasSuffix(".pdf")
    }
    #expect(names.sorted() == ["report 2.pdf", "report 3.pdf"])

    try machine.write("w.yml", "flow: 1\nsteps:\n  - move-file: {file: report 2.pdf, to: .}\n")
    let refused = await machine.run(["run", "w.yml"])
    #expect(refused.status == 1)
    #expect(refused.error.contains("'if-exists: keep-both' to number it"), "\(refused.error)")
  }

  /// A dry run makes no request to a host a step names, not even a GET (a webhook acts on a GET);
  /// `--dry-run=reads` makes the GETs and still nothing else.
  @Test func aDryRunContactsNoHostUnlessAskedForReads() async throws {
    let server = try await LoopbackServer.start { request in
      LoopbackServer.Response.text("pinged \(request.path)")
    }
    let machine = try Machine()
    try machine.write(
      "w.yml",
      """
      flow: 1
      steps:
        - get-url: \(server.url("/hook").absoluteString)
        - show: ${previous}
        - get-url:
            url: \(server.url("/delete").absoluteString)
            method: POST

      """)
    let dry = await machine.run(["run", "w.yml", "--dry-run"])
    #expect(dry.status == 0, "\(dry.error)")
    #expect(await server.requests.isEmpty)
    #expect(dry.output.contains("dry run: step 1 'get-url': Get contents of"), "\(dry.output)")
    let reads = await machine.run(["run", "w.yml", "--dry-run=reads"])
    #expect(reads.status == 0, "\(reads.error)")
    #expect(await server.requests.map(\.path) == ["/hook"])
    #expect(reads.output.hasPrefix("pinged /hook\n"), "\(reads.output)")
  }
}
