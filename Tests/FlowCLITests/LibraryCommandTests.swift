import FlowCLI
import FlowPresentation
import FlowTestSupport
import Foundation
import Testing

/// `flow list`, `flow new`, `flow remove`, and names in `flow validate`: the library in
/// `$XDG_DATA_HOME/flow/workflows`.
struct LibraryCommandTests {
  /// A home of its own: the library folder, and the environment that points flow at it.
  struct Home {
    let directory: URL
    var library: URL { directory.appendingPathComponent("data/flow/workflows") }
    var environment: [String: String] {
      ["NO_COLOR": "1", "COLUMNS": "100", "XDG_DATA_HOME": directory.appendingPathComponent("data").path]
    }

    init() throws {
      directory = try temporaryDirectory()
    }

    func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
      await runFlow(arguments, in: directory, environment: environment, clock: FixedTime.clock)
    }

    /// A transcript with the temporary folder written as `$HOME`, for goldens.
    func transcript(_ result: (status: Int32, output: String, error: String)) -> String {
      FlowCLITests.transcript(result).replacingOccurrences(of: directory.path, with: "$HOME")
    }
  }

  @Test func listShowsTheLibrary() async throws {
    let home = try Home()
    try FileManager.default.createDirectory(
      at: home.library.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: datedCopy(of: ["workflows"]).appendingPathComponent("workflows"), to: home.library)
    try "flow: 1\nsteps:\n  - shwo: x\n  - show: ${nothing}\n".write(
      to: home.library.appendingPathComponent("broken.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nschedule: 0 9 * * 1\ntimezone: Europe/Berlin\nsteps:\n  - show: Monday\n".write(
      to: home.library.appendingPathComponent("weekly.yaml"), atomically: true, encoding: .utf8)
    try "not a workflow".write(to: home.library.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let result = await home.run(["list"])
    #expect(result.status == 0)
    assertGolden(home.transcript(result), named: "list.txt")
    let json = await home.run(["list", "--json"])
    #expect(json.status == 0)
    assertGolden(home.transcript(json), named: "list-json.txt")
    let narrow = await runFlow(
      ["list"], in: home.directory, environment: home.environment.merging(["COLUMNS": "60"]) { $1 },
      clock: FixedTime.clock)
    #expect(!narrow.output.contains("DESCRIPTION"))
    // Without its description an invalid file still says so.
    #expect(narrow.output.contains("broken             invalid"), "\(narrow.output)")
  }

  /// A schedule column of dashes stays narrow and leaves the description its room.
  @Test func aLibraryWithoutSchedulesKeepsItsDescriptions() async throws {
    let home = try Home()
    try FileManager.default.createDirectory(at: home.library, withIntermediateDirectories: true)
    try "flow: 1\ndescription: Says hello to the world.\nsteps:\n  - show: hello\n".write(
      to: home.library.appendingPathComponent("hello.yml"), atomically: true, encoding: .utf8)
    let listed = await runFlow(
      ["list"], in: home.directory, environment: home.environment.merging(["COLUMNS": "72"]) { $1 },
      clock: FixedTime.clock)
    #expect(
      listed.output.hasPrefix(
        "NAME   ACTIONS  SCHEDULE  SIGNATURE  LAST RUN  DESCRIPTION\n"
          + "hello  1        —         unsigned   —         Says hello to the world.\n"), "\(listed.output)")
  }

  /// The LAST RUN column comes from run history: how the newest run of each file ended.
  @Test func listShowsTheLastRun() async throws {
    let home = try Home()
    try FileManager.default.createDirectory(at: home.library, withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - show: fine\n".write(
      to: home.library.appendingPathComponent("fine.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\ninput:\n  n: number\nsteps:\n  - repeat: ${input.n}\n    do:\n      - show: x\n".write(
      to: home.library.appendingPathComponent("failing.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nsteps:\n  - show: never run\n".write(
      to: home.library.appendingPathComponent("idle.yml"), atomically: true, encoding: .utf8)
    let environment = home.environment.merging(["XDG_STATE_HOME": home.directory.appendingPathComponent("state").path])
    {
      $1
    }
    for arguments in [["run", "fine"], ["run", "failing", "--input", "n=1"], ["run", "failing", "--input", "n=-1"]] {
      _ = await runFlow(arguments, in: home.directory, environment: environment, clock: FixedTime.clock)
    }
    let listed = await runFlow(
      ["list", "--json"], in: home.directory, environment: environment, clock: FixedTime.clock)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
    let workflows = try #require(json["workflows"] as? [[String: Any]])
    let last = Dictionary(
      uniqueKeysWithValues: workflows.map {
        ($0["name"] as? String ?? "", ($0["lastRun"] as? [String: Any])?["status"] as? String)
      })
    #expect(last == ["failing": "failed", "fine": "succeeded", "idle": nil])
  }

  @Test func anEmptyLibrarySaysHowToStart() async throws {
    let home = try Home()
    let result = await home.run(["list"])
    #expect(result.status == 0)
    #expect(result.output == "")
    #expect(result.error.contains("has no workflows"))
    #expect(result.error.contains("'flow new NAME'"))
    let json = await home.run(["list", "--json"])
    #expect(json.output.contains("\"workflows\" : [\n\n  ]"))
  }

  @Test func newWritesASkeletonThatRuns() async throws {
    let home = try Home()
    let created = await home.run(["new", "daily-digest"])
    #expect(created.status == 0)
    let file = home.library.appendingPathComponent("daily-digest.yml")
    #expect(created.output == file.path + "\n")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text == WorkflowSkeleton.text(name: "daily-digest"))
    #expect(text.hasPrefix("# yaml-language-server: $schema=flow.schema.json\n"))
    let schema = try String(contentsOf: home.library.appendingPathComponent("flow.schema.json"), encoding: .utf8)
    #expect(schema.contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
    // Found by name, as run finds it.
    #expect(await home.run(["validate", "daily-digest"]).status == 0)
    #expect(await home.run(["run", "daily-digest"]).output == "Hello from Daily Digest\n")
    // `.yml` out of habit is the same name.
    #expect(await home.run(["show", "daily-digest.yml"]).output.hasPrefix("Daily Digest\n"))
  }

  /// A misspelt name gets the name it was meant to be, from the library or ./workflows.
  @Test func aMisspeltNameGetsADidYouMean() async throws {
    let home = try Home()
    _ = await home.run(["new", "daily-digest"])
    let typo = await home.run(["validate", "daily-digets"])
    #expect(typo.status == 2)
    #expect(typo.error.contains("= help: did you mean 'daily-digest'?"), "\(typo.error)")
    let gallery = await runFlow(
      ["run", "bulk-tagg"], in: DocumentationTests.root, environment: home.environment, clock: FixedTime.clock)
    #expect(gallery.error.contains("= help: did you mean 'bulk-tag'?"), "\(gallery.error)")
    let far = await home.run(["validate", "something-else"])
    #expect(!far.error.contains("did you mean"))
  }

  @Test func newRefusesToOverwriteAndBadNames() async throws {
    let home = try Home()
    _ = await home.run(["new", "mine"])
    let file = home.library.appendingPathComponent("mine.yml")
    try "flow: 1\nsteps:\n  - show: edited\n".write(to: file, atomically: true, encoding: .utf8)
    let again = await home.run(["new", "mine"])
    #expect(again.status == 2)
    #expect(try String(contentsOf: file, encoding: .utf8) == "flow: 1\nsteps:\n  - show: edited\n")
    assertGolden(home.transcript(again), named: "new-exists.txt")
    let bad = await home.run(["new", "../escape"])
    #expect(bad.status == 2)
    assertGolden(home.transcript(bad), named: "new-bad-name.txt")
    #expect(await home.run(["new", "--", "-dash"]).status == 2)
    #expect(await home.run(["new", "two words"]).status == 2)
  }

  @Test func removeKeepsABackup() async throws {
    let home = try Home()
    _ = await home.run(["new", "mine"])
    let removed = await home.run(["remove", "mine"])
    #expect(removed.status == 0)
    let backup = home.library.appendingPathComponent(".backup/mine-20261118T110640Z.yml")
    #expect(removed.output == "removed 'mine'; the backup is \(backup.path)\n")
    #expect(FileManager.default.fileExists(atPath: backup.path))
    #expect(!FileManager.default.fileExists(atPath: home.library.appendingPathComponent("mine.yml").path))
    #expect(try String(contentsOf: backup, encoding: .utf8) == WorkflowSkeleton.text(name: "mine"))
    // A second removal in the same second keeps both copies.
    _ = await home.run(["new", "mine"])
    #expect(await home.run(["remove", "mine.yml"]).status == 0)
    #expect(
      FileManager.default.fileExists(
        atPath: home.library.appendingPathComponent(".backup/mine-20261118T110640Z-2.yml").path))
    // The backups are not workflows of the library.
    #expect(await home.run(["list", "--json"]).output.contains("\"workflows\" : [\n\n  ]"))
  }

  @Test func removeRefusesWhatIsNotInTheLibrary() async throws {
    let home = try Home()
    _ = await home.run(["new", "daily-digest"])
    let typo = await home.run(["remove", "daily-digets"])
    #expect(typo.status == 2)
    assertGolden(home.transcript(typo), named: "remove-unknown.txt")
    let path = await home.run(["remove", "workflows/save-and-tag.yml"])
    #expect(path.status == 2)
    #expect(path.error.contains("takes the name of a workflow in the library"))
    // Named as it was typed, not with its extension taken off.
    #expect(path.error.contains("no workflow named 'workflows/save-and-tag.yml'"))
  }
}
