import FlowCLI
import FlowPresentation
import FlowTestSupport
import Foundation
import Testing

/// `flow list`, `flow new`, `flow remove`, and names in `flow validate`: the library in
/// `$XDG_DATA_HOME/flow/workflows`.
struct LibraryCommandTests {
  /// A home of its own, where flow runs on the fixed clock, and the environment that points flow at its
  /// library, `data/flow/workflows`.
  static func machine() throws -> Machine {
    try Machine(clock: FixedTime.clock) {
      ["NO_COLOR": "1", "COLUMNS": "100", "XDG_DATA_HOME": $0.appendingPathComponent("data").path]
    }
  }

  @Test func listShowsTheLibrary() async throws {
    let machine = try Self.machine()
    try FileManager.default.createDirectory(
      at: machine.library.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: datedCopy(of: ["workflows"]).appendingPathComponent("workflows"), to: machine.library)
    try "flow: 1\nsteps:\n  - shwo: x\n  - show: ${nothing}\n".write(
      to: machine.library.appendingPathComponent("broken.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nschedule: 0 9 * * 1\ntimezone: Europe/Berlin\nsteps:\n  - show: Monday\n".write(
      to: machine.library.appendingPathComponent("weekly.yaml"), atomically: true, encoding: .utf8)
    try "not a workflow".write(
      to: machine.library.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let result = await machine.run(["list"])
    #expect(result.status == 0)
    assertGolden(machine.transcript(result), named: "library/list.txt")
    let json = await machine.run(["list", "--json"])
    #expect(json.status == 0)
    assertGolden(machine.transcript(json), named: "library/list-json.txt")
    let narrow = await Machine.run(
      ["list"], in: machine.home, environment: machine.environment.merging(["COLUMNS": "60"]) { $1 },
      clock: FixedTime.clock)
    #expect(!narrow.output.contains("DESCRIPTION"))
    // Without its description an invalid file still says so.
    #expect(narrow.output.contains("broken             invalid"), "\(narrow.output)")
  }

  /// A schedule column of dashes stays narrow and leaves the description its room.
  @Test func aLibraryWithoutSchedulesKeepsItsDescriptions() async throws {
    let machine = try Self.machine()
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try "flow: 1\ndescription: Says hello to the world.\nsteps:\n  - show: hello\n".write(
      to: machine.library.appendingPathComponent("hello.yml"), atomically: true, encoding: .utf8)
    let listed = await Machine.run(
      ["list"], in: machine.home, environment: machine.environment.merging(["COLUMNS": "72"]) { $1 },
      clock: FixedTime.clock)
    #expect(
      listed.output.hasPrefix(
        "NAME   ACTIONS  TRIGGERS  SIGNATURE  LAST RUN  DESCRIPTION\n"
          + "hello  1        —         unsigned   —         Says hello to the world.\n"), "\(listed.output)")
  }

  /// The LAST RUN column comes from run history: how the newest run of each file ended.
  @Test func listShowsTheLastRun() async throws {
    let machine = try Self.machine()
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - show: fine\n".write(
      to: machine.library.appendingPathComponent("fine.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\ninput:\n  n: number\nsteps:\n  - repeat: ${input.n}\n    do:\n      - show: x\n".write(
      to: machine.library.appendingPathComponent("failing.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nsteps:\n  - show: never run\n".write(
      to: machine.library.appendingPathComponent("idle.yml"), atomically: true, encoding: .utf8)
    let environment = machine.environment.merging(["XDG_STATE_HOME": machine.home.appendingPathComponent("state").path])
    {
      $1
    }
    for arguments in [["run", "fine"], ["run", "failing", "--input", "n=1"], ["run", "failing", "--input", "n=-1"]] {
      _ = await Machine.run(arguments, in: machine.home, environment: environment, clock: FixedTime.clock)
    }
    let listed = await Machine.run(
      ["list", "--json"], in: machine.home, environment: environment, clock: FixedTime.clock)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
    let workflows = try #require(json["workflows"] as? [[String: Any]])
    let last = Dictionary(
      uniqueKeysWithValues: workflows.map {
        ($0["name"] as? String ?? "", ($0["lastRun"] as? [String: Any])?["status"] as? String)
      })
    #expect(last == ["failing": "failed", "fine": "succeeded", "idle": nil])
  }

  @Test func anEmptyLibrarySaysHowToStart() async throws {
    let machine = try Self.machine()
    let result = await machine.run(["list"])
    #expect(result.status == 0)
    #expect(result.output == "")
    #expect(result.error.contains("has no workflows"))
    #expect(result.error.contains("'flow new NAME'"))
    let json = await machine.run(["list", "--json"])
    #expect(json.output.contains("\"workflows\" : [\n\n  ]"))
  }

  @Test func newWritesASkeletonThatRuns() async throws {
    let machine = try Self.machine()
    let created = await machine.run(["new", "daily-digest"])
    #expect(created.status == 0)
    let file = machine.library.appendingPathComponent("daily-digest.yml")
    #expect(created.output == file.path + "\n")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text == WorkflowSkeleton.text(name: "daily-digest"))
    #expect(text.hasPrefix("# yaml-language-server: $schema=flow.schema.json\n"))
    let schema = try String(contentsOf: machine.library.appendingPathComponent("flow.schema.json"), encoding: .utf8)
    #expect(schema.contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
    // Found by name, as run finds it.
    #expect(await machine.run(["validate", "daily-digest"]).status == 0)
    #expect(await machine.run(["run", "daily-digest"]).output == "Hello from Daily Digest\n")
    // `.yml` out of habit is the same name.
    #expect(await machine.run(["show", "daily-digest.yml"]).output.hasPrefix("Daily Digest\n"))
  }

  /// A misspelt name gets the name it was meant to be, from the library or ./workflows.
  @Test func aMisspeltNameGetsADidYouMean() async throws {
    let machine = try Self.machine()
    _ = await machine.run(["new", "daily-digest"])
    let typo = await machine.run(["validate", "daily-digets"])
    #expect(typo.status == 2)
    #expect(typo.error.contains("= help: did you mean 'daily-digest'?"), "\(typo.error)")
    let gallery = await Machine.run(
      ["run", "bulk-tagg"], in: DocumentationTests.root, environment: machine.environment, clock: FixedTime.clock)
    #expect(gallery.error.contains("= help: did you mean 'bulk-tag'?"), "\(gallery.error)")
    let far = await machine.run(["validate", "something-else"])
    #expect(!far.error.contains("did you mean"))
  }

  @Test func newRefusesToOverwriteAndBadNames() async throws {
    let machine = try Self.machine()
    _ = await machine.run(["new", "mine"])
    let file = machine.library.appendingPathComponent("mine.yml")
    try "flow: 1\nsteps:\n  - show: edited\n".write(to: file, atomically: true, encoding: .utf8)
    let again = await machine.run(["new", "mine"])
    #expect(again.status == 2)
    #expect(try String(contentsOf: file, encoding: .utf8) == "flow: 1\nsteps:\n  - show: edited\n")
    assertGolden(machine.transcript(again), named: "library/new-exists.txt")
    let bad = await machine.run(["new", "../escape"])
    #expect(bad.status == 2)
    assertGolden(machine.transcript(bad), named: "library/new-bad-name.txt")
    #expect(await machine.run(["new", "--", "-dash"]).status == 2)
    #expect(await machine.run(["new", "two words"]).status == 2)
  }

  @Test func removeKeepsABackup() async throws {
    let machine = try Self.machine()
    _ = await machine.run(["new", "mine"])
    let removed = await machine.run(["remove", "mine"])
    #expect(removed.status == 0)
    let backup = machine.library.appendingPathComponent(".backup/mine-20261118T110640Z.yml")
    #expect(removed.output == "removed 'mine'; the backup is \(backup.path)\n")
    #expect(FileManager.default.fileExists(atPath: backup.path))
    #expect(!FileManager.default.fileExists(atPath: machine.library.appendingPathComponent("mine.yml").path))
    #expect(try String(contentsOf: backup, encoding: .utf8) == WorkflowSkeleton.text(name: "mine"))
    // A second removal in the same second keeps both copies.
    _ = await machine.run(["new", "mine"])
    #expect(await machine.run(["remove", "mine.yml"]).status == 0)
    #expect(
      FileManager.default.fileExists(
        atPath: machine.library.appendingPathComponent(".backup/mine-20261118T110640Z-2.yml").path))
    // The backups are not workflows of the library.
    #expect(await machine.run(["list", "--json"]).output.contains("\"workflows\" : [\n\n  ]"))
  }

  @Test func removeRefusesWhatIsNotInTheLibrary() async throws {
    let machine = try Self.machine()
    _ = await machine.run(["new", "daily-digest"])
    let typo = await machine.run(["remove", "daily-digets"])
    #expect(typo.status == 2)
    assertGolden(machine.transcript(typo), named: "library/remove-unknown.txt")
    let path = await machine.run(["remove", "workflows/save-and-tag.yml"])
    #expect(path.status == 2)
    #expect(path.error.contains("takes the name of a workflow in the library"))
    // Named as it was typed, not with its extension taken off.
    #expect(path.error.contains("no workflow named 'workflows/save-and-tag.yml'"))
  }
}
