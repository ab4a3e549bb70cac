import FlowCLI
import FlowIntents
import FlowSession
import FlowTestSupport
import Foundation
import Testing

/// A fixed "now" for the goldens, and file dates two months before it.
enum FixedTime {
  static let now = Date(timeIntervalSince1970: 1_795_000_000)
  static let modified = now.addingTimeInterval(-65 * 86_400)
  static var clock: ManualClock { ManualClock(now: now) }
}

/// Copies `names` of the repository's folders into a temporary folder with every file dated
/// ``FixedTime/modified``, so that goldens do not depend on when the checkout happened.
func datedCopy(of folders: [String]) throws -> URL {
  let directory = try temporaryDirectory()
  for folder in folders {
    let target = directory.appendingPathComponent(folder)
    try FileManager.default.copyItem(at: DocumentationTests.root.appendingPathComponent(folder), to: target)
    let files = FileManager.default.enumerator(at: target, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      try FileManager.default.setAttributes([.modificationDate: FixedTime.modified], ofItemAtPath: file.path)
    }
  }
  return directory
}

/// `flow show`: every gallery and example file drawn, plus colour, a narrow terminal, JSON and hostile files.
struct ShowCommandTests {
  static let gallery = testDirectory().appendingPathComponent("../../workflows").standardizedFileURL
  static let hostile = testDirectory().appendingPathComponent("Hostile")
  static let plain = ["NO_COLOR": "1", "COLUMNS": "80"]

  @Test(arguments: try listing(of: ExampleTests.examples))
  func exampleGolden(file: String) async throws {
    let directory = try datedCopy(of: ["examples"])
    let result = await Machine.run(
      ["show", "examples/\(file)"], in: directory, environment: Self.plain, clock: FixedTime.clock)
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "show/examples/\(file.dropLast(4)).txt")
  }

  /// Gallery workflows are found by name, as `flow run` finds them in ./workflows.
  @Test(arguments: try listing(of: gallery))
  func galleryGolden(file: String) async throws {
    let directory = try datedCopy(of: ["workflows"])
    let result = await Machine.run(
      ["show", String(file.dropLast(4))], in: directory, environment: Self.plain, clock: FixedTime.clock)
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "show/workflows/\(file.dropLast(4)).txt")
  }

  /// Files written to do harm say so: deleting without asking, any host, the environment, other workflows.
  @Test(arguments: try listing(of: hostile))
  func hostileGolden(file: String) async throws {
    let directory = try temporaryDirectory()
    try FileManager.default.copyItem(
      at: testDirectory().appendingPathComponent("Hostile"), to: directory.appendingPathComponent("Hostile"))
    for name in try listing(of: Self.hostile) {
      try FileManager.default.setAttributes(
        [.modificationDate: FixedTime.modified], ofItemAtPath: directory.appendingPathComponent("Hostile/\(name)").path)
    }
    let result = await Machine.run(
      ["show", "Hostile/\(file)"], in: directory, environment: Self.plain, clock: FixedTime.clock)
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "show/hostile/\(file.dropLast(4)).txt")
  }

  @Test func colouredAtATerminal() async throws {
    let directory = try datedCopy(of: ["workflows"])
    let result = await Machine.run(
      ["show", "empty-trash"], in: directory, environment: ["COLUMNS": "80"], terminal: true, clock: FixedTime.clock)
    #expect(result.output.contains("\u{1B}["))
    assertGolden(transcript(result), named: "show/coloured-empty-trash.txt")
    let noColor = await Machine.run(
      ["show", "empty-trash"], in: directory, environment: ["COLUMNS": "80", "NO_COLOR": "1"], terminal: true,
      clock: FixedTime.clock)
    #expect(!noColor.output.contains("\u{1B}["))
  }

  @Test func narrowTerminal() async throws {
    let directory = try datedCopy(of: ["workflows"])
    let result = await Machine.run(
      ["show", "save-and-tag"], in: directory, environment: ["NO_COLOR": "1", "COLUMNS": "46"],
      clock: FixedTime.clock)
    for line in result.output.split(separator: "\n") { #expect(line.count <= 46, "\(line)") }
    assertGolden(transcript(result), named: "show/narrow-save-and-tag.txt")
  }

  @Test func json() async throws {
    let directory = try datedCopy(of: ["workflows"])
    let result = await Machine.run(
      ["show", "save-and-tag", "--json"], in: directory, environment: Self.plain, clock: FixedTime.clock)
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect((object["summary"] as? [String: Any])?["actions"] as? Int == 8)
    assertGolden(transcript(result), named: "show/json-save-and-tag.txt")
  }

  @Test func invalidWorkflowsAreReportedAsValidateDoes() async throws {
    let result = await Machine.run(["show", "invalid/structure.yml"], in: ExampleTests.examples)
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(result.error.contains("found 6 errors"))
    let missing = await Machine.run(["show", "no-such-workflow"], in: ExampleTests.examples)
    #expect(missing.status == 2)
    #expect(missing.error.contains("no workflow named 'no-such-workflow'"))
  }

  @Test func libraryNamesAreFound() async throws {
    let directory = try temporaryDirectory()
    let library = directory.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    try "flow: 1\nname: Mine\nsteps:\n  - show: from the library\n".write(
      to: library.appendingPathComponent("mine.yml"), atomically: true, encoding: .utf8)
    let result = await Machine.run(
      ["show", "mine"], in: directory,
      environment: ["NO_COLOR": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("Mine\n"))
    #expect(result.output.contains("Show “from the library”"))
  }
}

/// `flow show` at a real terminal: the width comes from the terminal, colour from it being one.
@Suite(.serialized)
struct ShowTerminalTests {
  @Test func fitsTheTerminalsWidthInColour() throws {
    let terminal = try PseudoTerminal()
    terminal.resize(columns: 60)
    let process = try terminal.spawn(
      Machine.executable, arguments: ["show", "workflows/bulk-tag.yml"],
      environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "TERM": "xterm"],
      directory: DocumentationTests.root)
    try terminal.expect("What it may do")
    try terminal.expect("contacts api.raindrop.io")
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(terminal.transcript.contains("\u{1B}[36m⟨found⟩\u{1B}[0m"))
    let plain = terminal.transcript.replacing(#/\x1B\[[0-9;]*m/#, with: "")
    #expect(plain.split(separator: "\n").allSatisfy { $0.count <= 60 })
    // Wider than 60 columns would have left the whole search step on one line.
    #expect(!plain.contains("Get bookmarks · search text ⟨input.search⟩ · maximum results all"))
  }
}
