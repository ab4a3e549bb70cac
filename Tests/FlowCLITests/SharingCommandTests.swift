import FlowCLI
import FlowIntents
import FlowPresentation
import FlowTestSupport
import Foundation
import Testing

extension Machine {
  /// A person's machine for the sharing commands: a home of its own and a user name; flow runs in a dated
  /// copy of the repository's workflows and examples (``repository``), so that dates in the output do not
  /// depend on the checkout, on the fixed clock.
  static func sharing(user: String = "ada") throws -> Machine {
    let home = try temporaryDirectory()
    let repository = home.appendingPathComponent("repository")
    try FileManager.default.moveItem(at: datedCopy(of: ["workflows", "examples"]), to: repository)
    return Machine(home: home, in: repository, clock: FixedTime.clock) {
      ["HOME": $0.path, "USER": user, "NO_COLOR": "1", "COLUMNS": "80"]
    }
  }

  /// `workflows/` and `examples/`, dated ``FixedTime/modified``.
  var repository: URL { home.appendingPathComponent("repository") }
}

/// `flow export`, `flow import` and `flow keys` (issue 9), run in-process with a home of their own.
struct SharingCommandTests {
  static let sharing = testDirectory().appendingPathComponent("Sharing")

  /// The issue's "done when": export signed, import behind the card, listed as signed; one changed
  /// byte and the import refuses.
  @Test func exportSignedImportAndList() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("b.flow.yml")
    let export = await machine.run(["export", "workflows/bulk-tag.yml", "--sign", "-o", shared.path])
    #expect(export.status == 0, "\(export.error)")
    #expect(export.error.contains("made your signing key 'ada'"))
    let text = try String(contentsOf: shared, encoding: .utf8)
    let original = try String(
      contentsOf: DocumentationTests.root.appendingPathComponent("workflows/bulk-tag.yml"), encoding: .utf8)
    #expect(text.hasPrefix(original))
    #expect(text.contains("shared:\n  created: 2026-11-18T11:06:40Z\n"))
    #expect(text.contains("# flow-signature: ed25519\n"))

    let imported = await machine.run(["import", shared.path], terminal: true, lines: ["y"])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(imported.error.contains("5 actions · created just now · signed by ada (trusted)"))
    #expect(imported.error.contains("writes Raindrop.io bookmarks (1 step)"))
    #expect(imported.error.contains("contacts api.raindrop.io"))
    #expect(imported.error.contains("Add 'bulk-tag' to your library? [y/N] y"))
    #expect(imported.output == machine.library.appendingPathComponent("bulk-tag.yml").path + "\n")

    let list = await machine.run(["list"])
    #expect(list.output.contains("bulk-tag  5        —         signed by ada (trusted)"), "\(list.output)")
    let show = await machine.run(["show", "bulk-tag"])
    #expect(show.output.contains("5 actions · created just now · signed by ada (trusted)"))

    // One changed byte: refused, whatever is answered.
    var bytes = try Data(contentsOf: shared)
    bytes[40] ^= 0x01
    let tampered = machine.home.appendingPathComponent("tampered.flow.yml")
    try bytes.write(to: tampered)
    let refused = await machine.run(["import", tampered.path, "--as", "other", "--yes"], terminal: true, lines: ["y"])
    #expect(refused.status == 2)
    #expect(refused.error.contains("refusing to import: the file was changed after it was signed"))
    #expect(!FileManager.default.fileExists(atPath: machine.library.appendingPathComponent("other.yml").path))
  }

  /// The card of every gallery workflow and hostile file, and the refusal of an unattended import.
  @Test(
    arguments: try listing(of: ShowCommandTests.gallery).map { "workflows/\($0)" }
      + listing(of: ShowCommandTests.hostile).map { "Hostile/\($0)" })
  func cardGolden(file: String) async throws {
    let machine = try Machine.sharing()
    let directory = file.hasPrefix("Hostile/") ? testDirectory() : machine.repository
    let runs = "deletes-without-asking.yml"
    if file == "Hostile/runs-others.yml" {
      // It runs a workflow it does not carry: found in the library (never beside the file), and in red.
      try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: testDirectory().appendingPathComponent("Hostile/\(runs)"), to: machine.library.appendingPathComponent(runs))
    }
    let result = await machine.run(["import", file], in: directory)
    #expect(result.status == 4)
    #expect(result.error.contains("nothing was added"))
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: machine.library.path)).map { $0 == [runs] } ?? true,
      "nothing was added to the library")
    assertGolden(machine.transcript(result), named: "import/\(file.dropLast(4)).txt")
  }

  /// At a terminal the card is in colour, what deletes without asking in red; declining adds nothing.
  @Test func redAtATerminalAndDeclined() async throws {
    let machine = try Machine.sharing()
    let result = await machine.run(
      ["import", "Hostile/deletes-without-asking.yml"], in: testDirectory(), environment: ["NO_COLOR": ""],
      terminal: true, lines: ["n"])
    #expect(result.status == 3)
    #expect(result.error.contains("\u{1B}[1;31mfor-each (step 2) is confirmed without asking"))
    #expect(result.error.contains("Add 'tidy-up' to your library? [y/N] n\n"))
    #expect(!FileManager.default.fileExists(atPath: machine.library.appendingPathComponent("tidy-up.yml").path))
    let plain = await machine.run(
      ["import", "Hostile/deletes-without-asking.yml"], in: testDirectory(), terminal: true, lines: ["n"])
    #expect(!plain.error.contains("\u{1B}["))
  }

  /// An import question is the sender's text: its control characters are shown, never obeyed.
  @Test func aQuestionsControlCharactersAreShownNotObeyed() async throws {
    let machine = try Machine.sharing()
    let result = await machine.run(
      ["import", "Hostile/escape-sequences.yml"], in: testDirectory(), terminal: true, lines: ["x", "n"])
    #expect(result.status == 3)
    #expect(result.error.contains("Which folder?␛]0;owned␇: "), "\(result.error)")
    #expect(!result.error.contains("\u{1B}"))
  }

  /// Export, import, run: the same output as running the original, the nested workflow included.
  @Test func roundTripRunsTheSame() async throws {
    let machine = try Machine.sharing()
    let examples = machine.repository.appendingPathComponent("examples")
    let original = await machine.run(["run", "run-workflow.yml", "--no-history"], in: examples)
    #expect(original.status == 0)
    let shared = machine.home.appendingPathComponent("rw.flow.yml")
    let export = await machine.run(["export", "run-workflow.yml", "-o", shared.path], in: examples)
    #expect(export.status == 0, "\(export.error)")
    #expect(export.error.contains("1 workflow embedded, unsigned"))
    let text = try String(contentsOf: shared, encoding: .utf8)
    #expect(text.contains("workflows:\n  greet.yml:\n    flow: 1\n"))
    let imported = await machine.run(["import", shared.path, "--yes"], in: machine.home)
    #expect(imported.status == 0, "\(imported.error)")
    // From a folder without greet.yml: the embedded copy runs.
    let run = await machine.run(["run", "run-workflow", "--no-history"], in: machine.home)
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == original.output)
    // Exporting the imported copy again embeds the same workflow once more, and reads back.
    let again = await machine.run(["export", "run-workflow", "-o", "again.flow.yml"], in: machine.home)
    #expect(again.status == 0, "\(again.error)")
    let second = try String(contentsOf: machine.home.appendingPathComponent("again.flow.yml"), encoding: .utf8)
    #expect(second.components(separatedBy: "workflows:").count == 2)
    #expect(second.components(separatedBy: "shared:").count == 2)
  }

  /// Issue 16: a `run-workflow` the file does not carry is found from the library's folder when the card
  /// is drawn, when the import checks the file and whenever the copy runs, never beside the download:
  /// a harmless tidy.yml beside it cannot stand in on the card for the library's, which deletes.
  @Test func aWorkflowTheFileDoesNotCarryIsTheLibrarysOnTheCardInTheCheckAndInTheRun() async throws {
    let machine = try Machine.sharing()
    let downloads = machine.home.appendingPathComponent("Downloads")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    let sharing = Self.sharing
    try FileManager.default.copyItem(
      at: sharing.appendingPathComponent("chores.flow.yml"), to: downloads.appendingPathComponent("chores.flow.yml"))
    try FileManager.default.copyItem(
      at: sharing.appendingPathComponent("beside-tidy.yml"), to: downloads.appendingPathComponent("tidy.yml"))

    // Not in the library: refused, whatever lies beside the download.
    let refused = await machine.run(["import", "chores.flow.yml", "--yes"], in: downloads)
    #expect(refused.status == 2)
    #expect(!refused.error.contains("Harmless Tidy"))

    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: sharing.appendingPathComponent("library-tidy.yml"), to: machine.library.appendingPathComponent("tidy.yml"))
    let imported = await machine.run(["import", "chores.flow.yml", "--yes"], in: downloads)
    #expect(imported.status == 0, "\(imported.error)")
    #expect(!imported.error.contains("Harmless Tidy"))
    assertGolden(
      machine.transcript(refused) + "\n" + machine.transcript(imported), named: "import/library-workflow.txt")

    // At a terminal, the workflow from the reader's disk and the one chosen at run time are in red.
    let colored = await machine.run(
      ["import", "chores.flow.yml", "--as", "chores-2", "--yes", "--no-input"], in: downloads,
      environment: ["NO_COLOR": ""],
      terminal: true)
    #expect(colored.error.contains("\u{1B}[1;31mruns workflow "), "\(colored.error)")

    // The check of the copy and its run, from the download's folder, find the library's too.
    let validate = await machine.run(["validate", "chores", "--json"], in: downloads)
    #expect(validate.status == 0)
    let run = await machine.run(["run", "chores", "--yes", "--no-history"], in: downloads)
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "the library's tidy.yml ran\nthe library's tidy.yml ran\nchores done\n")
  }

  /// Issue 16: the card's Actions say what every workflow that runs uses, and the share page draws
  /// their steps.
  @Test func theCardAndTheSharePageShowEveryWorkflowThatRuns() async throws {
    let machine = try Machine.sharing()
    let examples = machine.repository.appendingPathComponent("examples")
    let shared = machine.home.appendingPathComponent("rw.flow.yml")
    let export = await machine.run(["export", "run-workflow.yml", "-o", shared.path], in: examples)
    #expect(export.status == 0, "\(export.error)")
    let imported = await machine.run(["import", shared.path], in: machine.home)
    #expect(imported.status == 4)
    assertGolden(machine.transcript(imported), named: "import/embedded-actions.txt")

    let page = machine.home.appendingPathComponent("rw.html")
    let html = await machine.run(["export", "--html", "run-workflow.yml", "-o", page.path], in: examples)
    #expect(html.status == 0, "\(html.error)")
    let text = try String(contentsOf: page, encoding: .utf8)
    #expect(text.contains("<section class=\"workflow\" id=\"workflow-1\""))
    #expect(text.contains("<h2>Runs “Greet” · "))
    #expect(text.contains("#greet.yml</h2>"))
    let greet = try #require(text.range(of: "id=\"workflow-1\""))
    #expect(text[greet.upperBound...].contains("<li class=\"step kind-action\" data-position=\"1\">"))
  }

  /// Import questions from --answer: written in as defaults, comments kept, still "signed by ada".
  @Test func answersBecomeDefaults() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("q.flow.yml")
    _ = await machine.run(["export", "Sharing/questions.yml", "--sign", "-o", shared.path], in: testDirectory())
    let unanswered = await machine.run(["import", shared.path, "--yes"])
    #expect(unanswered.status == 4)
    #expect(unanswered.error.contains("import question 'collection' needs an answer"))
    let wrong = await machine.run(["import", shared.path, "--yes", "--answer", "colection=x"])
    #expect(wrong.status == 2)
    #expect(wrong.error.contains("did you mean 'collection'?"))

    let result = await machine.run(
      ["import", shared.path, "--yes", "--answer", "collection=Reading ${List}", "--answer", "tags=swift, linux"])
    #expect(result.status == 0, "\(result.error)")
    let copy = try String(contentsOf: machine.library.appendingPathComponent("save-to-collection.yml"), encoding: .utf8)
    #expect(
      copy.contains(
        "    ask-on-import: true          # asked once, kept as the default\n    default: \"Reading $${List}\"\n"))
    #expect(copy.contains("    default: [\"swift\", \"linux\"]\n"))
    #expect(copy.contains("  # Shown rather than saved, so that the test needs no store.\n"))
    #expect(!copy.contains("flow-signature"))
    let list = await machine.run(["list", "--json"])
    #expect(list.output.contains("\"signer\" : \"ada\""))
    let run = await machine.run(["run", "save-to-collection", "--input", "url=https://swift.org", "--no-history"])
    #expect(run.output == "Would save https://swift.org to Reading ${List}, tagged swift, linux\n")
    // Edited by hand, it is the person's own file.
    try (copy + "# my note\n").write(
      to: machine.library.appendingPathComponent("save-to-collection.yml"), atomically: true, encoding: .utf8)
    let edited = await machine.run(["show", "save-to-collection"])
    #expect(edited.output.contains("· unsigned"))
  }

  /// A key nobody here trusts reads as its fingerprint, until the person trusts it.
  @Test func unknownSignerThenTrusted() async throws {
    let grace = try Machine.sharing(user: "grace")
    let shared = grace.home.appendingPathComponent("g.flow.yml")
    _ = await grace.run(["export", "workflows/empty-trash.yml", "--sign", "-o", shared.path])
    let publicKey = await grace.run(["keys", "export"])
    #expect(publicKey.output.hasPrefix("flow-ed25519 "))
    let fingerprint = await grace.run(["keys", "list", "--json"])

    let ada = try Machine.sharing()
    let card = await ada.run(["import", shared.path])
    #expect(card.error.contains("signed by an unknown key\n│ (SHA256:"))
    #expect(card.error.contains("nobody you trust signed it"))
    let show = await ada.run(["show", shared.path])
    #expect(show.output.contains("signed by an unknown key\n(SHA256:"))
    let key = ada.home.appendingPathComponent("grace.pub")
    try publicKey.output.write(to: key, atomically: true, encoding: .utf8)
    let trusted = await ada.run(["keys", "trust", key.path])
    #expect(trusted.status == 0)
    #expect(trusted.output.hasPrefix("trusted 'grace' SHA256:"))
    #expect(
      fingerprint.output.contains(
        String(trusted.output.split(separator: " ").last ?? "").trimmingCharacters(in: .newlines)))
    let again = await ada.run(["show", shared.path])
    #expect(again.output.contains("signed by grace (trusted)"))
    let twice = await ada.run(["keys", "trust", key.path, "--name", "hopper"])
    #expect(twice.status == 2)
    #expect(twice.error.contains("already trusted as 'grace'"))
    let untrust = await ada.run(["keys", "untrust", "grace"])
    #expect(untrust.status == 0)
    let after = await ada.run(["show", shared.path])
    #expect(after.output.contains("signed by an unknown key"))
  }

  @Test func exportRefusesSecretsUnlessAllowed() async throws {
    let machine = try Machine.sharing()
    let refused = await machine.run(
      ["export", "Secrets/leaky.yml"], in: testDirectory().appendingPathComponent("../FlowSharingTests"))
    #expect(refused.status == 2)
    #expect(refused.output == "")
    #expect(refused.error.contains("found 5 errors"))
    let allowed = await machine.run(
      [
        "export", "Secrets/leaky.yml", "--allow-secret", "input.api-key.default", "--allow-secret",
        "steps[1].get-url.headers.Authorization", "--allow-secret", "steps[2].dictionary.password",
        "--allow-secret", "steps[2].dictionary.webhook", "--allow-secret", "comment:16",
      ], in: testDirectory().appendingPathComponent("../FlowSharingTests"))
    #expect(allowed.status == 0, "\(allowed.error)")
    #expect(allowed.output.contains("password: hunter2hunter2"))

    // A secret input's default stays on this machine; the rest of the file is as written.
    let dropped = await machine.run(["export", "Sharing/secret-default.yml"], in: testDirectory())
    #expect(dropped.status == 0, "\(dropped.error)")
    #expect(!dropped.output.contains("ZmFrZVRva2Vu"))
    #expect(
      dropped.output.hasPrefix(
        "flow: 1\nname: Secret Default\ninput:\n  token:\n    type: text\n    secret: true\n  greeting:\n"))

    let lint = await machine.run(
      ["validate", "--lint-secrets", "Secrets/leaky.yml"],
      in: testDirectory().appendingPathComponent("../FlowSharingTests"))
    #expect(lint.status == 2)
    #expect(lint.error.contains("this looks like a credential"))
    let plain = await machine.run(
      ["validate", "Secrets/leaky.yml"], in: testDirectory().appendingPathComponent("../FlowSharingTests"))
    #expect(plain.status == 0)
  }

  /// A signed file changed until it no longer loads still reads tampered in the list, not unsigned.
  @Test func anInvalidTamperedFileInTheLibrarySaysTampered() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("h.flow.yml")
    _ = await machine.run(["export", "examples/hello.yml", "--sign", "-o", shared.path])
    let text = try String(contentsOf: shared, encoding: .utf8).replacingOccurrences(of: "- show:", with: "- shwo:")
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try text.write(to: machine.library.appendingPathComponent("hello.yml"), atomically: true, encoding: .utf8)
    let list = await machine.run(["list", "--json"])
    #expect(list.output.contains("\"status\" : \"tampered\""), "\(list.output)")
    #expect(list.output.contains("\"errors\" : 1"))
  }

  /// A provenance record is believed only in the library: one that comes with a folder from elsewhere
  /// cannot make the file beside it read as signed.
  @Test func aProvenanceRecordOutsideTheLibraryIsIgnored() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("h.flow.yml")
    _ = await machine.run(["export", "examples/hello.yml", "--sign", "-o", shared.path])
    #expect(await machine.run(["import", shared.path, "--yes"]).status == 0)
    #expect(await machine.run(["show", "hello"]).output.contains("signed by ada (trusted)"))
    // The same two files, as a cloned repository could carry them.
    let clone = machine.home.appendingPathComponent("clone")
    try FileManager.default.createDirectory(
      at: clone.appendingPathComponent(".provenance"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: machine.library.appendingPathComponent("hello.yml"), to: clone.appendingPathComponent("hello.yml"))
    try FileManager.default.copyItem(
      at: machine.library.appendingPathComponent(".provenance/hello.json"),
      to: clone.appendingPathComponent(".provenance/hello.json"))
    let show = await machine.run(["show", "clone/hello.yml"], in: machine.home)
    #expect(show.status == 0)
    #expect(show.output.contains("· unsigned"), "\(show.output)")
  }

  /// `flow validate --lint-secrets` is the export's check: the workflows a file runs are looked at too,
  /// each finding named by the path it will have in the shared file, each once.
  @Test func lintSecretsLooksAtTheWorkflowsItRuns() async throws {
    let machine = try Machine.sharing()
    let folder = machine.home.appendingPathComponent("project")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "flow: 1\nsteps:\n  - run-workflow: child.yml\n  - run-workflow: child.yml\n".write(
      to: folder.appendingPathComponent("main.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nsteps:\n  - dictionary:\n      password: hunter2hunter2\n".write(
      to: folder.appendingPathComponent("child.yml"), atomically: true, encoding: .utf8)
    let lint = await machine.run(["validate", "--lint-secrets", "main.yml"], in: folder)
    #expect(lint.status == 2)
    #expect(
      lint.error.contains(#"--allow-secret 'workflows["child.yml"].steps[1].dictionary.password'"#), "\(lint.error)")
    #expect(lint.error.contains("found 1 error"))
    let export = await machine.run(["export", "main.yml"], in: folder)
    #expect(export.status == 2)
    #expect(export.error.contains("found 1 error"))
    let allowed = await machine.run(
      [
        "validate", "--lint-secrets", "main.yml", "--allow-secret",
        #"workflows["child.yml"].steps[1].dictionary.password"#,
      ],
      in: folder)
    #expect(allowed.status == 0, "\(allowed.error)")
  }

  @Test func replaceKeepsABackup() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("h.flow.yml")
    _ = await machine.run(["export", "examples/hello.yml", "-o", shared.path])
    #expect(await machine.run(["import", shared.path, "--yes"]).status == 0)
    let twice = await machine.run(["import", shared.path, "--yes"])
    #expect(twice.status == 2)
    #expect(twice.error.contains("--replace replaces it, keeping the old copy as a backup"))
    let replaced = await machine.run(["import", shared.path, "--yes", "--replace"])
    #expect(replaced.status == 0, "\(replaced.error)")
    let backups = try FileManager.default.contentsOfDirectory(
      atPath: machine.library.appendingPathComponent(".backup").path)
    #expect(backups.sorted() == ["hello-20261118T110640Z.provenance.json", "hello-20261118T110640Z.yml"])
  }

  /// A URL goes through the HTTP layer, size-limited, against a real loopback server.
  @Test func importFromAURL() async throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("h.flow.yml")
    _ = await machine.run(["export", "examples/hello.yml", "--sign", "-o", shared.path])
    let bytes = try Data(contentsOf: shared)
    let server = try await LoopbackServer.start { request in
      switch request.path {
      case "/hello.flow.yml": LoopbackServer.Response(status: 200, body: bytes)
      case "/huge.flow.yml": LoopbackServer.Response(status: 200, body: Data(repeating: 0x23, count: (4 << 20) + 1))
      default: LoopbackServer.Response.text("no such file", status: 404)
      }
    }
    defer { Task { await server.stop() } }
    let url = server.url("/hello.flow.yml").absoluteString
    let proxy = ["no_proxy": "127.0.0.1,localhost"]
    let imported = await machine.run(["import", url, "--yes"], in: machine.home, environment: proxy)
    #expect(imported.status == 0, "\(imported.error)")
    #expect(imported.error.contains("from \(url)"))
    // 'flow show' reads files: the card does not offer it a URL.
    #expect(!imported.error.contains("'flow show http"))
    #expect(imported.error.contains("save the file, and 'flow show FILE' draws every step"))
    let record = try String(
      contentsOf: machine.library.appendingPathComponent(".provenance/hello.json"), encoding: .utf8)
    #expect(record.contains("\"source\" : \"\(url)\""))
    let missing = await machine.run(
      ["import", server.url("/gone.flow.yml").absoluteString, "--yes"], in: machine.home, environment: proxy)
    #expect(missing.status == 2)
    #expect(missing.error.contains("the server answered 404 instead of the file"))
    let huge = await machine.run(
      ["import", server.url("/huge.flow.yml").absoluteString, "--yes"], in: machine.home, environment: proxy)
    #expect(huge.status == 2)
    #expect(huge.error.contains("the file is longer than the 4 MiB a workflow file may be"))
  }

  @Test func importFromStandardInput() async throws {
    let machine = try Machine.sharing()
    let text = try String(contentsOf: machine.repository.appendingPathComponent("examples/hello.yml"), encoding: .utf8)
    let result = await machine.run(["import", "-", "--yes"], in: machine.home, piped: text)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.contains("nobody vouches for who wrote it"))
    #expect(!result.error.contains("'flow show -'"))
    let huge = await machine.run(
      ["import", "-", "--yes"], in: machine.home, piped: String(repeating: "#", count: (4 << 20) + 1))
    #expect(huge.status == 2)
    #expect(huge.error.contains("-: error: the file is longer than the 4 MiB a workflow file may be"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: machine.library.path).filter { $0.hasSuffix(".yml") } == [
        "hello.yml"
      ])
  }

  /// The share page's tile shows the workflow's `icon:`; a workflow without one, or with a symbol the
  /// page cannot draw, its initial.
  @Test func theSharePageShowsTheIcon() async throws {
    let machine = try Machine.sharing()
    let page = machine.home.appendingPathComponent("page.html")
    func glyph(_ file: String) async throws -> String {
      let exported = await machine.run(["export", "--html", file, "-o", page.path])
      #expect(exported.status == 0, "\(exported.error)")
      let html = try String(contentsOf: page, encoding: .utf8)
      let start = try #require(html.range(of: "<span class=\"glyph\">"))
      let end = try #require(html[start.upperBound...].range(of: "</span>"))
      return String(html[start.upperBound..<end.lowerBound])
    }
    // Symbols are drawn (inline SVG, no font needed); the rest is the initial.
    #expect(try await glyph("workflows/empty-trash.yml") == IconGlyph.svg(for: "trash"))
    #expect(try await glyph("examples/hello.yml") == IconGlyph.svg(for: "hand-wave"))
    let plain = machine.home.appendingPathComponent("plain.yml")
    try "flow: 1\nname: quiet\nicon: no-such-symbol\nsteps:\n  - show: hi\n".write(
      to: plain, atomically: true, encoding: .utf8)
    #expect(try await glyph(plain.path) == "Q")
  }

  /// `flow list` piped has no width to fit: the description stays, whole; and a file signed by a key
  /// nobody trusts is named by the start of its fingerprint, not all 50 characters of it.
  @Test func listPipedKeepsDescriptionsAndShortensUnknownKeys() async throws {
    let grace = try Machine.sharing(user: "grace")
    let ada = try Machine.sharing()
    try FileManager.default.createDirectory(at: ada.library, withIntermediateDirectories: true)
    let shared = ada.library.appendingPathComponent("empty-trash.yml")
    _ = await grace.run(["export", "workflows/empty-trash.yml", "--sign", "-o", shared.path])
    let keys = await grace.run(["keys", "list", "--json"]).output
    let fingerprint = try #require(keys.split(separator: "\"").first { $0.hasPrefix("SHA256:") })
    let description = "Delete for good what is in Trash, after one confirmation for the lot."
    let piped = await ada.run(["list"], environment: ["COLUMNS": ""])
    #expect(piped.status == 0)
    let row = try #require(piped.output.split(separator: "\n").last)
    #expect(row.hasSuffix(description), "\(piped.output)")
    #expect(row.contains("unknown key \(fingerprint.prefix(15))… "), "\(piped.output)")
    #expect(!row.contains(fingerprint))
    // At a terminal of 100 columns the description has room beside the short fingerprint.
    let terminal = await ada.run(["list"], environment: ["COLUMNS": "100"])
    #expect(
      terminal.output.hasPrefix("NAME         ACTIONS  TRIGGERS  SIGNATURE                     LAST RUN  DESCRIPTION\n")
    )
    #expect(terminal.output.contains(" —         Delete for good"), "\(terminal.output)")
    let json = await ada.run(["list", "--json"], environment: ["COLUMNS": ""])
    #expect(json.output.contains(String(fingerprint)))
  }

  /// Without `$USER` (a container, cron, `env -i`) the key is named after the account, not "me".
  @Test func aKeyIsNamedAfterTheAccountWithoutUSER() async throws {
    let machine = try Machine.sharing()
    let account = String(cString: try #require(getpwuid(geteuid())?.pointee.pw_name))
    let generated = await machine.run(["keys", "generate"], environment: ["USER": ""])
    #expect(generated.status == 0, "\(generated.error)")
    #expect(generated.output.hasPrefix("\(account) SHA256:"), "\(generated.output)")
    #expect(account != "me")
  }

  @Test func keysSession() async throws {
    let machine = try Machine.sharing()
    let empty = await machine.run(["keys", "list"])
    #expect(empty.error.contains("no keys yet"))
    let generated = await machine.run(["keys", "generate"])
    #expect(generated.status == 0)
    #expect(generated.output.hasPrefix("ada SHA256:"))
    let again = await machine.run(["keys", "generate", "--name", "ada"])
    #expect(again.status == 2)
    #expect(again.error.contains("you already have a signing key named 'ada'"))
    let list = await machine.run(["keys", "list"])
    #expect(list.output.hasPrefix("NAME  KEY      FINGERPRINT\nada   yours    SHA256:"))
    let bad = await machine.run(["keys", "trust", "not-a-key", "--name", "x"])
    #expect(bad.status == 2)
    #expect(bad.error.contains("'not-a-key' is neither a file nor a public key"))
    let notes = machine.home.appendingPathComponent("notes.txt")
    try "remember the milk\n".write(to: notes, atomically: true, encoding: .utf8)
    let wrongFile = await machine.run(["keys", "trust", notes.path, "--name", "x"])
    #expect(wrongFile.status == 2)
    #expect(wrongFile.error.contains("\(notes.path): error: the file does not hold a public key"))
    let several = await machine.run(["keys", "generate", "--name", "work"])
    #expect(several.status == 0)
    let ambiguous = await machine.run(["export", "examples/hello.yml", "--sign"])
    #expect(ambiguous.status == 2)
    #expect(ambiguous.error.contains("choose one with --key: ada, work"))
    let chosen = await machine.run(["export", "examples/hello.yml", "--sign", "--key", "work"])
    #expect(chosen.status == 0)
  }
}

/// Import questions asked at a real terminal, by the real binary.
@Suite(.serialized)
struct ImportTerminalTests {
  @Test func questionsThenConfirmation() throws {
    let machine = try Machine.sharing()
    let shared = machine.home.appendingPathComponent("q.flow.yml")
    let export = Process()
    export.executableURL = Machine.executable
    export.arguments = ["export", "Sharing/questions.yml", "--sign", "-o", shared.path]
    export.environment = machine.environment
    export.currentDirectoryURL = testDirectory()
    export.standardError = FileHandle.nullDevice
    try export.run()
    export.waitUntilExit()
    #expect(export.terminationStatus == 0)
    let terminal = try PseudoTerminal()
    terminal.resize(columns: 80)
    let process = try terminal.spawn(
      Machine.executable, arguments: ["import", shared.path],
      environment: machine.environment.merging(["PATH": "/usr/bin:/bin", "TERM": "dumb"]) { $1 },
      directory: machine.home)
    try terminal.expect("signed by ada (trusted)")
    try terminal.expect("Asked now, kept as defaults: collection, tags")
    try terminal.expect("Which collection should pages go to?: ")
    terminal.send("\n")
    try terminal.expect("this question needs an answer")
    try terminal.expect("Which collection should pages go to?: ")
    terminal.send("Reading\n")
    try terminal.expect("Value for 'tags' (List of Text) [inbox]: ")
    terminal.send("\n")
    try terminal.expect("Add 'save-to-collection' to your library? [y/N] ")
    terminal.send("y\n")
    try terminal.expect("added 'save-to-collection' to your library")
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let copy = try String(contentsOf: machine.library.appendingPathComponent("save-to-collection.yml"), encoding: .utf8)
    #expect(copy.contains("    default: \"Reading\"\n"))
    #expect(copy.contains("    default: [inbox]\n"))
    #expect(!copy.contains("flow-signature"))
  }
}
