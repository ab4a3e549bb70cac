import FlowCLI
import FlowDiagnostics
import FlowTestSupport
import Foundation
import RaindropLocal
import RaindropModel
import RaindropStubServer
import Testing

/// Issue 16, items 11–16: what a run prints from a file, names that pass for others, what flow leaves
/// readable on disk, and signatures at run time.
struct HardeningTests {
  static let files = testDirectory().appendingPathComponent("Hardening")

  // MARK: - Item 11: a bulk update that fails part-way says which bookmarks it changed

  /// 250 bookmarks, the second of three requests refused: the message, `--json` and run history all say
  /// that the first 100 were tagged and the other 150 were not, by id.
  @Test func aPartialBulkUpdateSaysWhatWasDone() async throws {
    var machine = try RaindropWorkflowTests.machine()
    let serverStore = try LocalBackend(directory: machine.home.appendingPathComponent("server"))
    var ids: [Int] = []
    for index in 0..<250 {
      ids.append(try await serverStore.createBookmark(NewBookmark(link: "https://b.example/\(index)", parse: false)).id)
    }
    let server = try RaindropStubServer(store: serverStore)
    let url = try await server.start()
    machine.environment["RAINDROP_API_URL"] = url.absoluteString
    machine.environment["RAINDROP_TOKEN"] = "test-token"
    let file = machine.home.appendingPathComponent("tag-all.yml")
    try
      "flow: 1\nsteps:\n  - get-bookmarks:\n      max-results: all\n  - update-bookmarks:\n      bookmarks: ${previous}\n      add-tags: [later]\n"
      .write(to: file, atomically: true, encoding: .utf8)
    await server.failNext(.badRequest, on: "PUT /raindrops/{collectionId}", skipping: 1)
    let run = await machine.run(["run", file.path, "--json"])
    let history = await machine.run(["runs", "--json"])
    let tagged = try await serverStore.allBookmarks(BookmarkListQuery(search: "#later"))
    await server.stop()

    #expect(tagged.count == 100)
    let untagged = Set(ids).subtracting(tagged.map(\.id)).sorted()
    let changed = BulkProgress(changed: tagged.map(\.id), uncertain: [], unchanged: untagged).description
    #expect(changed.hasPrefix("100 of 250 bookmarks were changed (ids "))
    #expect(changed.contains(" and 150 were not (ids "))
    #expect(run.status == 1)
    #expect(run.output.contains("Raindrop.io refused the request: Injected bad request; \(changed)"), "\(run.output)")
    #expect(history.output.contains("Injected bad request; \(changed)"), "\(history.output)")
  }

  // MARK: - Item 12: a workflow's text is shown, never obeyed

  /// `ask`, `choose-from-list`, `confirm` and `show` at a terminal: every escape shown as a picture.
  @Test func runTimeTextIsShownNotObeyed() async throws {
    let machine = try Machine.sharing()
    let result = await machine.run(
      ["run", "escapes-at-run-time.yml"], in: Self.files, terminal: true, lines: ["", "1", "y"])
    #expect(result.status == 0, "\(result.error)")
    for stream in [result.output, result.error] {
      #expect(!stream.contains("\u{1B}"))
      #expect(!stream.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) })
      #expect(!stream.contains("\r"))
    }
    // Line breaks of a value stay line breaks.
    #expect(result.output.contains("\nline three\n"))
    assertGolden(machine.transcript(result), named: "hardening/escapes-at-run-time.txt")
  }

  /// Piped, standard output is the workflow's data and keeps its bytes; the questions on standard error
  /// (none here: nobody can answer) and the output at a terminal do not.
  @Test func pipedOutputKeepsItsBytes() async throws {
    let machine = try Machine.sharing()
    let file = machine.home.appendingPathComponent("colour.yml")
    try "flow: 1\nsteps:\n  - show: \"\\e[1mbold\\e[0m\"\n".write(to: file, atomically: true, encoding: .utf8)
    let piped = await machine.run(["run", file.path])
    #expect(piped.output == "\u{1B}[1mbold\u{1B}[0m\n")
    let shown = await machine.run(["run", file.path], terminal: true)
    #expect(shown.output == "␛[1mbold␛[0m\n")
  }

  @Test func theSanitiserKeepsLinesAndShowsTheRest() {
    #expect(TerminalSafe.lines("a\tb\r\nc\rd\u{1B}]52;c;eA==\u{07}\u{9B}2J") == "a\tb\nc␍d␛]52;c;eA==␇\u{FFFD}2J")
    #expect(TerminalSafe.text("a\u{200B}b\u{E0041}") == "a<U+200B>b<U+E0041>")
  }

  // MARK: - Item 13: names that pass for others; invisible characters made visible

  @Test func invisibleCharactersAreShownOnTheCardInTheListAndInShow() async throws {
    let machine = try Machine.sharing()
    let card = await machine.run(["import", "invisible-names.yml"], in: Self.files)
    #expect(card.status == 4)
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.files.appendingPathComponent("invisible-names.yml"),
      to: machine.library.appendingPathComponent("invisible.yml"))
    let list = await machine.run(["list"])
    let show = await machine.run(["show", "invisible"])
    for result in [card, list, show] {
      let text = result.output + result.error
      #expect(!text.unicodeScalars.contains { TerminalSafe.isInvisible($0) }, "\(text)")
    }
    assertGolden(
      [card, list, show].map(machine.transcript).joined(separator: "\n"), named: "hardening/invisible-characters.txt")
  }

  @Test func libraryNamesThatPassForOthersAreRefused() async throws {
    let machine = try Machine.sharing()
    #expect(await machine.run(["new", "bulk-tag"]).status == 0)
    var transcripts: [String] = []
    for name in ["bulk-t\u{430}g", "\u{FF42}ulk-tag", "bu\u{217C}k-tag"] {
      let refused = await machine.run(["new", name])
      #expect(refused.status == 2, "\(name)")
      transcripts.append("$ flow new \(LookAlikesText.visible(name))\n" + machine.transcript(refused))
    }
    // A name in one script that looks like none already there is fine.
    #expect(await machine.run(["new", "caf\u{E9}-\u{43C}\u{43E}\u{439}"]).status == 2)
    #expect(await machine.run(["new", "\u{43C}\u{43E}\u{439}-\u{441}\u{43F}\u{438}\u{441}\u{43E}\u{43A}"]).status == 0)
    #expect(await machine.run(["new", "caf\u{E9}"]).status == 0)
    // An import whose title makes a look-alike name is told to take another.
    let shared = machine.home.appendingPathComponent("look-alike.yml")
    try "flow: 1\nname: Bulk T\u{430}g\nsteps:\n  - show: hi\n".write(to: shared, atomically: true, encoding: .utf8)
    let imported = await machine.run(["import", shared.path, "--yes"])
    #expect(imported.status == 2)
    transcripts.append("$ flow import look-alike.yml --yes\n" + machine.transcript(imported))
    assertGolden(transcripts.joined(separator: "\n"), named: "hardening/look-alike-workflow-names.txt")
  }

  @Test func keyNamesThatPassForOthersAreRefused() async throws {
    let machine = try Machine.sharing()
    #expect(await machine.run(["keys", "generate", "--name", "ace"]).status == 0)
    let exported = await machine.run(["keys", "export", "ace"])
    let key = machine.home.appendingPathComponent("ace.pub")
    try exported.output.write(to: key, atomically: true, encoding: .utf8)
    var transcripts: [String] = []
    // Cyrillic а with Latin d and a; then all Cyrillic, one script, but the skeleton of 'ace'.
    for name in ["\u{430}da", "\u{430}\u{441}\u{435}"] {
      let refused = await machine.run(["keys", "trust", key.path, "--name", name])
      #expect(refused.status == 2, "\(name): \(refused.error)")
      transcripts.append(
        "$ flow keys trust ace.pub --name \(LookAlikesText.visible(name))\n" + machine.transcript(refused))
    }
    let generated = await machine.run(["keys", "generate", "--name", "\u{430}\u{441}\u{435}"])
    #expect(generated.status == 2)
    assertGolden(transcripts.joined(separator: "\n"), named: "hardening/look-alike-key-names.txt")
  }

  // MARK: - Item 15: what flow writes under its XDG folders is private, whatever the umask

  /// The real binary under umask 000: the local store (with its -wal and -shm), run history, a lock, the
  /// library with a new workflow and an imported one (and its provenance record), a signing key, a
  /// trusted key: every folder 0700, every file 0600.
  @Test func everythingFlowWritesIsPrivateUnderUmask000() async throws {
    func fresh() throws -> Machine {
      try Machine(in: RaindropWorkflowTests.workflows) {
        ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": $0.path, "USER": "ada"]
      }
    }
    let machine = try fresh()
    let home = machine.home
    #expect(try machine.runBinary(["run", "save-and-tag.yml", "--input", "url=https://swift.org"], umask: 0) == 0)
    #expect(try machine.runBinary(["new", "mine"], umask: 0) == 0)
    #expect(try machine.runBinary(["keys", "generate"], umask: 0) == 0)
    let shared = home.appendingPathComponent("shared.flow.yml").path
    #expect(try machine.runBinary(["export", "bulk-tag.yml", "--sign", "-o", shared], umask: 0) == 0)
    #expect(try machine.runBinary(["import", shared, "--yes"], umask: 0) == 0)
    // Someone else's key, made in a home of its own, trusted here.
    let other = try fresh()
    #expect(try other.runBinary(["keys", "generate", "--name", "bob"], umask: 0) == 0)
    let pub = other.home.appendingPathComponent(".config/flow/keys/bob.pub").path
    #expect(try machine.runBinary(["keys", "trust", pub, "--name", "friend"], umask: 0) == 0)

    // SQLite's -wal and -shm exist while the store is open: look while a connection holds it.
    let store = try LocalBackend(directory: home.appendingPathComponent(".local/share/flow"))
    _ = try await store.collections()
    var seen: [String: Int] = [:]
    for folder in [".config/flow", ".local/share/flow", ".local/state/flow"] {
      let root = home.appendingPathComponent(folder)
      seen[folder] = Self.mode(root.path)
      for case let path as String in FileManager.default.enumerator(atPath: root.path)?.allObjects ?? [] {
        seen["\(folder)/\(path)"] = Self.mode(root.appendingPathComponent(path).path)
      }
    }
    for name in [
      ".local/share/flow/raindrop.sqlite", ".local/share/flow/workflows/mine.yml",
      ".local/share/flow/workflows/bulk-tag.yml", ".local/share/flow/workflows/.provenance/bulk-tag.json",
      ".local/state/flow/history.sqlite-pending", ".config/flow/keys/ada.key", ".config/flow/keys/trusted/friend.pub",
      ".local/share/flow/raindrop.sqlite-wal", ".local/share/flow/raindrop.sqlite-shm",
    ] {
      #expect(seen[name] != nil, "\(name) was not written: \(seen.keys.sorted())")
    }
    #expect(seen.keys.contains { $0.hasPrefix(".local/state/flow/locks/") })
    for (path, mode) in seen.sorted(by: { $0.key < $1.key }) {
      var status = stat()
      stat(home.appendingPathComponent(path).path, &status)
      let expected = status.st_mode & S_IFMT == S_IFDIR ? 0o700 : 0o600
      #expect(mode == expected, "\(path) is \(String(mode, radix: 8))")
    }
    withExtendedLifetime(store) {}
  }

  static func mode(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return -1 }
    return Int(status.st_mode & 0o777)
  }

  // MARK: - Item 16: a broken signature is reported by every command that reads the file

  @Test func runAndValidateReportABrokenSignature() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("h.flow.yml")
    #expect(await machine.run(["export", "examples/hello.yml", "--sign", "-o", shared.path]).status == 0)
    let text = try String(contentsOf: shared, encoding: .utf8).replacingOccurrences(of: "Hello", with: "Howdy")
    try text.write(to: shared, atomically: true, encoding: .utf8)
    var transcripts: [String] = []
    // Outside the library: a warning, and the run goes on.
    for arguments in [["validate", shared.path], ["run", shared.path]] {
      let result = await machine.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.error)")
      #expect(result.error.contains("warning: the file was changed after it was signed"))
      let command = arguments.joined(separator: " ").replacingOccurrences(of: machine.home.path, with: "$HOME")
      transcripts.append("$ flow \(command)\n" + machine.transcript(result))
    }
    // A library copy: an error, and nothing runs.
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try text.write(to: machine.library.appendingPathComponent("hello.yml"), atomically: true, encoding: .utf8)
    for arguments in [["validate", "hello"], ["run", "hello"]] {
      let result = await machine.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.error)")
      #expect(result.error.contains("error: the file was changed after it was signed"))
      #expect(!result.output.contains("Howdy"))
      transcripts.append("$ flow \(arguments.joined(separator: " "))\n" + machine.transcript(result))
    }
    let json = await machine.run(["validate", "hello", "--json"])
    #expect(json.output.contains("\"code\" : \"tampered-file\""))
    assertGolden(transcripts.joined(separator: "\n"), named: "hardening/broken-signature-at-run-time.txt")
  }

  @Test func aDamagedSignatureBlockIsReportedToo() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("h.flow.yml")
    #expect(await machine.run(["export", "examples/hello.yml", "--sign", "-o", shared.path]).status == 0)
    let text = try String(contentsOf: shared, encoding: .utf8) + "# trailing text\n"
    try text.write(to: shared, atomically: true, encoding: .utf8)
    let result = await machine.run(["validate", shared.path])
    #expect(result.status == 0)
    #expect(result.error.contains("warning: the file's signature block does not read"), "\(result.error)")
  }
}

/// Names as the goldens print them: every character outside ASCII by its code point.
enum LookAlikesText {
  static func visible(_ name: String) -> String {
    name.unicodeScalars.map { $0.isASCII ? String($0) : TerminalSafe.codePoint($0) }.joined()
  }
}

/// The real binary at a real pseudo-terminal: ESC, OSC 52, CSI and C1 from the file arrive as pictures.
@Suite(.serialized)
struct HardeningTerminalTests {
  @Test func escapesReachTheTerminalAsPictures() throws {
    let terminal = try PseudoTerminal()
    let process = try terminal.spawn(
      Machine.executable, arguments: ["run", "escapes-at-run-time.yml"], environment: TerminalTests.environment,
      directory: HardeningTests.files)
    try terminal.expect("Name?␛[2K␍Password? [␛]52;c;ZXZpbA==␇]: ")
    terminal.send("\n")
    try terminal.expect("Choose 1-2: ")
    terminal.send("1\n")
    try terminal.expect("Go on?␛[1A␛[2K [y/N] ")
    terminal.send("y\n")
    try terminal.expect("line three\n")
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    // NO_COLOR: flow sends no escape of its own, so any would be the file's.
    #expect(!terminal.transcript.contains("\u{1B}"), "\(terminal.transcript.debugDescription)")
    #expect(!terminal.transcript.unicodeScalars.contains { $0.value == 0x9B })
    #expect(terminal.transcript.contains("\u{FFFD}1A␛[2K␍line two\nline three\n"))
  }
}
