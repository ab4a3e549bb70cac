import FlowCLI
import FlowTestSupport
import Foundation
import RaindropLocal
import RaindropModel
import RaindropStubServer
import Testing

/// The workflows gallery and the Raindrop commands, on the embedded local store and against the
/// loopback stand-in that speaks Raindrop's REST protocol.
struct RaindropWorkflowTests {
  static let workflows = testDirectory().appendingPathComponent("../../workflows").standardizedFileURL

  /// A fresh machine: empty XDG folders, no token; flow runs in the gallery.
  static func machine() throws -> Machine {
    try Machine(in: workflows) { home in
      [
        "NO_COLOR": "1", "HOME": home.path,
        "XDG_DATA_HOME": home.appendingPathComponent("data").path,
        "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      ]
    }
  }

  @Test func saveAndTagOnAFreshMachine() async throws {
    let machine = try Self.machine()
    let result = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "workflows/save-and-tag.txt")
    #expect(FileManager.default.fileExists(atPath: Self.store(of: machine).path))
    // The bookmark is really there: a second workflow finds it, starred and tagged.
    let digest = await machine.run(["run", "favourites-digest.yml"])
    #expect(digest.output.contains("https://swift.org [inbox, later]"))
  }

  /// Run twice for one page, it keeps one bookmark: the second run finds the first (`skip-if-exists`), and
  /// says so through `${saved.existed}` (issue 14, item 9).
  @Test func saveAndTagTwiceKeepsOneBookmark() async throws {
    let machine = try Self.machine()
    let first = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    #expect(first.status == 0, "\(first.error)")
    #expect(first.output == "Saved “https://swift.org” (swift.org)\n")
    let again = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    assertGolden(transcript(again), named: "workflows/save-and-tag.again.txt")
    let digest = await machine.run(["run", "favourites-digest.yml"])
    #expect(digest.output.hasPrefix("Favourites (1):\n"), "\(digest.output)")
  }

  @Test func dryRunChangesNothingAndStillRunsEveryStep() async throws {
    let machine = try Self.machine()
    let result = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org", "--dry-run"])
    #expect(result.status == 0)
    assertGolden(transcript(result), named: "workflows/save-and-tag.dry-run.txt")
    let after = await machine.run(["run", "favourites-digest.yml"])
    #expect(after.output == "No favourites yet.\n")
  }

  /// The local store's folder.
  static func store(of machine: Machine) -> URL { machine.home.appendingPathComponent("data/flow") }

  /// The files under the store's folder and their bytes: what "writes nothing" compares.
  static func snapshot(_ directory: URL) -> [String: Data] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return Dictionary(
      uniqueKeysWithValues: names.map {
        ($0, FileManager.default.contents(atPath: directory.appendingPathComponent($0).path) ?? Data())
      })
  }

  /// Nothing at all: no store, no run history, no lock file.
  @Test func dryRunOnAFreshMachineCreatesNothing() async throws {
    let machine = try Self.machine()
    let result = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org", "--dry-run"])
    #expect(result.status == 0)
    let created = FileManager.default.enumerator(atPath: machine.home.path)?.allObjects as? [String]
    #expect(created == [])
    // The real run does record itself, so the check above can fail.
    _ = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    #expect(FileManager.default.fileExists(atPath: machine.home.appendingPathComponent(".local/state/flow").path))
  }

  @Test func dryRunLeavesTheStoreByteForByte() async throws {
    let machine = try Self.machine()
    _ = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    let before = Self.snapshot(Self.store(of: machine))
    #expect(before.keys.contains("raindrop.sqlite"))
    for arguments in [
      ["save-and-tag.yml", "--input", "url=https://example.com"], ["empty-trash.yml"],
      ["bulk-tag.yml", "--input", "search=swift", "--input", "tag=t"],
    ] {
      let result = await machine.run(["run"] + arguments + ["--dry-run"])
      #expect(result.status == 0, "\(arguments): \(result.error)")
    }
    #expect(Self.snapshot(Self.store(of: machine)) == before)
  }

  /// A dry run looks up what the real run would look up, and fails where it would, at the value.
  @Test func dryRunReportsWhatTheRealRunWouldHit() async throws {
    let machine = try Self.machine()
    let file = machine.home.appendingPathComponent("missing.yml")
    try
      "flow: 1\nsteps:\n  - save-bookmark:\n      url: https://example.com\n      collection: NoSuchColl\n  - delete-bookmark: 99999\n"
      .write(to: file, atomically: true, encoding: .utf8)
    let dryRun = await machine.run(["run", file.path, "--dry-run"])
    #expect(dryRun.status == 1)
    #expect(
      dryRun.error.contains("missing.yml:5:19: error: step 1 'save-bookmark': no Collection matches 'NoSuchColl'"))
    #expect(dryRun.error.contains("= help: expected 'All bookmarks', 'Unsorted' or 'Trash'"))
    let real = await machine.run(["run", file.path, "--yes"])
    #expect(real.status == 1)
    #expect(real.error == dryRun.error)

    try "flow: 1\nsteps:\n  - delete-bookmark: 99999\n".write(to: file, atomically: true, encoding: .utf8)
    let delete = await machine.run(["run", file.path, "--dry-run"])
    #expect(delete.status == 1)
    #expect(delete.error.contains("missing.yml:3:22: error: step 1 'delete-bookmark': no Bookmark matches '99999'"))
  }

  /// Through the REST API a dry run reads what the real run would read, and sends nothing that changes
  /// anything: every request is a GET, and the missing collection is still found missing.
  @Test func dryRunThroughTheAPIOnlyReads() async throws {
    var machine = try Self.machine()
    let server = try RaindropStubServer(
      store: try LocalBackend(directory: machine.home.appendingPathComponent("server")))
    let url = try await server.start()
    machine.environment["RAINDROP_API_URL"] = url.absoluteString
    machine.environment["RAINDROP_TOKEN"] = "test-token"
    let seeded = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    await server.resetCounts()
    var results = [
      await machine.run(["run", "save-and-tag.yml", "--input", "url=https://example.com", "--dry-run"]),
      await machine.run(["run", "bulk-tag.yml", "--input", "search=swift", "--input", "tag=t", "--dry-run"]),
    ]
    let file = machine.home.appendingPathComponent("missing.yml")
    try "flow: 1\nsteps:\n  - save-bookmark:\n      url: https://example.com\n      collection: NoSuchColl\n"
      .write(to: file, atomically: true, encoding: .utf8)
    results.append(await machine.run(["run", file.path, "--dry-run"]))
    let counts = await server.requestCounts
    let saved = try await server.store.bookmarks(BookmarkListQuery())
    await server.stop()
    #expect(seeded.status == 0)
    #expect(results.map(\.status) == [0, 0, 1])
    #expect(results[2].error.contains("missing.yml:5:19: error: step 1 'save-bookmark': no Collection matches"))
    #expect(counts.keys.contains { $0.hasPrefix("GET ") })
    #expect(counts.keys.allSatisfy { $0.hasPrefix("GET ") }, "\(counts)")
    #expect(saved.items.map(\.link) == ["https://swift.org"])
  }

  @Test func galleryRunsAsItsGoldensSay() async throws {
    let machine = try Self.machine()
    for (link, tags) in [
      ("https://github.com/apple/swift", ["lang"]), ("https://www.github.com/swiftlang/swift-format", []),
      ("https://swift.org/blog", ["news"]), ("https://example.com/recipes", []),
    ] as [(String, [String])] {
      _ = await machine.run([
        "run", "save-and-tag.yml", "--input", "url=\(link)", "--input", "tags=\(tags.first ?? "inbox")",
      ])
    }
    _ = await machine.run(["do", "save", "to", "raindrop", "https://github.com/apple/swift-nio"])
    var transcripts = ""
    for (arguments, lines) in [
      (["run", "triage-unsorted.yml", "--input", "domain=github.com", "--input", "collection=Code"], []),
      (["run", "bulk-tag.yml", "--input", "search=swift", "--input", "tag=swift", "--yes"], []),
      (["run", "favourites-digest.yml", "--input", "limit=2"], []),
      (["do", "search", "raindrop", "#swift"], []),
      (["run", "empty-trash.yml", "--yes"], []),
    ] as [([String], [String])] {
      let result = await machine.run(arguments, terminal: !lines.isEmpty, lines: lines)
      transcripts += "$ flow \(arguments.joined(separator: " "))\n" + transcript(result) + "\n"
    }
    assertGolden(transcripts, named: "workflows/gallery.txt")
  }

  @Test func emptyTrashAsksOnceForTheLot() async throws {
    let machine = try Self.machine()
    _ = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://a.example"])
    _ = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://b.example"])
    let trash =
      "flow: 1\nsteps:\n  - get-bookmarks: example\n  - for-each: ${previous}\n    do:\n      - delete-bookmark: ${item}\n"
    let file = machine.home.appendingPathComponent("trash-them.yml")
    try trash.write(to: file, atomically: true, encoding: .utf8)
    let moved = await machine.run(["run", file.path, "--yes"])
    #expect(moved.status == 0)
    let unattended = await machine.run(["run", "empty-trash.yml"])
    #expect(unattended.status == 4)
    #expect(
      unattended.error.contains(
        "= help: pass --yes, or write 'confirmations: auto' in the workflow, to confirm unattended"))
    let declined = await machine.run(["run", "empty-trash.yml"], terminal: true, lines: ["n"])
    #expect(declined.status == 3)
    let confirmed = await machine.run(["run", "empty-trash.yml"], terminal: true, lines: ["y"])
    #expect(confirmed.status == 0)
    #expect(confirmed.output.hasSuffix("Deleted 2 bookmarks.\n"))
    // One question for the lot, not one per bookmark.
    #expect(confirmed.error.components(separatedBy: "[y/N]").count == 2)
  }

  @Test func restBackendAgainstTheStandIn() async throws {
    var machine = try Self.machine()
    let server = try RaindropStubServer(
      store: try LocalBackend(directory: machine.home.appendingPathComponent("server")))
    let url = try await server.start()
    defer { Task { await server.stop() } }
    machine.environment["RAINDROP_API_URL"] = url.absoluteString
    machine.environment["RAINDROP_TOKEN"] = "test-token"
    let result = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    await server.stop()
    #expect(result.status == 0)
    #expect(result.error == "backend: raindrop (a Raindrop.io token is configured)\n")
    #expect(result.output == "Saved “https://swift.org” (swift.org)\n")
    #expect(!result.output.contains("test-token") && !result.error.contains("test-token"))
    let saved = try await server.store.bookmarks(BookmarkListQuery())
    #expect(saved.items.map(\.tags) == [["inbox", "later"]])
    #expect(saved.items.first?.important == true)
  }

  @Test func wrongTokenIsABackendError() async throws {
    var machine = try Self.machine()
    let server = try RaindropStubServer(
      store: try LocalBackend(directory: machine.home.appendingPathComponent("server")))
    let url = try await server.start()
    machine.environment["RAINDROP_API_URL"] = url.absoluteString
    machine.environment["RAINDROP_TOKEN"] = "wrong-token"
    let result = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    await server.stop()
    #expect(result.status == 5)
    #expect(result.error.contains("Please log in to Raindrop.io first"))
    #expect(result.error.contains("= help: run 'flow auth login' or set RAINDROP_TOKEN"))
    #expect(!result.error.contains("wrong-token"))
  }

  @Test func doMatchesPhrasesAndAsksForWhatIsMissing() async throws {
    let machine = try Self.machine()
    let listed = await machine.run(["do"])
    #expect(listed.output.contains("save to raindrop"))
    let saved = await machine.run(["do", "save", "to", "raindrop", "https://swift.org"])
    #expect(saved.status == 0)
    #expect(saved.output == "https://swift.org — swift.org\n")
    let asked = await machine.run(["do", "save", "to", "raindrop"], terminal: true, lines: ["https://example.com"])
    #expect(asked.status == 0)
    #expect(asked.error.contains("URL (URL): https://example.com"))
    let unattended = await machine.run(["do", "save", "to", "raindrop"])
    #expect(unattended.status == 4)
    let typo = await machine.run(["do", "sve", "to", "raindrop", "x"])
    #expect(typo.status == 2)
    #expect(typo.error.contains("= help: did you mean 'save to raindrop'?"))
  }

  @Test func raindropBackendWithoutATokenSaysHowToLogIn() async throws {
    let machine = try Self.machine()
    let result = await machine.run([
      "run", "save-and-tag.yml", "--input", "url=https://swift.org", "--backend", "raindrop",
    ])
    #expect(result.status == 5)
    #expect(result.error.contains("Please log in to Raindrop.io first"))
  }

  @Test func authLoginStatusLogout() async throws {
    var machine = try Self.machine()
    let server = try RaindropStubServer(
      store: try LocalBackend(directory: machine.home.appendingPathComponent("server")))
    let url = try await server.start()
    machine.environment["RAINDROP_API_URL"] = url.absoluteString
    let login = await machine.run(["auth", "login"], piped: nil)
    #expect(login.status == 2)
    let saved = await machine.run(["auth", "login"], lines: ["test-token"])
    #expect(saved.status == 0)
    let tokenFile = machine.home.appendingPathComponent("config/flow/raindrop-token").path
    let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(!saved.output.contains("test-token"))
    let status = await machine.run(["auth", "status"])
    #expect(status.status == 0)
    #expect(status.output.hasPrefix("Logged in to Raindrop.io as "))
    #expect(!status.output.contains("test-token"))
    // With a token saved, runs choose Raindrop.io by themselves.
    let run = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    #expect(run.error.hasPrefix("backend: raindrop (a Raindrop.io token is configured)"))
    let logout = await machine.run(["auth", "logout"])
    #expect(logout.status == 0)
    #expect(!FileManager.default.fileExists(atPath: tokenFile))
    await server.stop()
  }

  @Test func configFileChoosesTheBackend() async throws {
    let machine = try Self.machine()
    let config = machine.home.appendingPathComponent("config/flow")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try "backend: raindrop\n".write(to: config.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
    let result = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org"])
    #expect(result.status == 5)
    #expect(result.error.hasPrefix("backend: raindrop (config file)"))
    let flag = await machine.run(["run", "save-and-tag.yml", "--input", "url=https://swift.org", "--backend", "local"])
    #expect(flag.status == 0)
    #expect(flag.error == "backend: local (--backend)\n")
  }

}
