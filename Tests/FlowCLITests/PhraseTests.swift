import FlowTestSupport
import Foundation
import Testing

/// `phrases:` (SPEC §11): the App Shortcuts of a library workflow, matched by `flow do` with the inputs
/// they name, listed by `flow do` alone, shown by `flow show`, and checked at their columns for mistakes
/// and clashes by `flow validate` and `flow import`.
struct PhraseTests {
  static let tidy = """
    flow: 1
    name: Tidy downloads
    phrases: ["tidy my downloads", "clean up downloads"]
    steps:
      - show: tidied
    """

  static let readLater = """
    flow: 1
    name: Read later
    input:
      url: url
      tag: text
    phrases: ["save ${url} for later as ${tag}", "read later"]
    steps:
      - show: saved ${input.url} as ${input.tag}
    """

  static let quiz = """
    flow: 1
    name: Quiz
    input:
      topic: text
    phrases: ["quiz me on"]
    steps:
      - show: a question on ${input.topic}
    """

  /// A machine whose library holds the three workflows above.
  static func machine() throws -> Machine {
    let machine = try Machine()
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    for (name, text) in [("tidy", tidy), ("read-later", readLater), ("quiz", quiz)] {
      try text.write(to: machine.library.appendingPathComponent("\(name).yml"), atomically: true, encoding: .utf8)
    }
    return machine
  }

  @Test func aPhraseRunsTheWorkflowWhosePhraseItIs() async throws {
    let machine = try Self.machine()
    let result = await machine.run(["do", "tidy", "my", "downloads"], id: "do-tidy")
    assertGolden(machine.transcript(result), named: "phrases/do-tidy.txt")
    // Recorded as a run of the workflow, started by 'flow do'.
    let runs = await machine.run(["runs", "show", "do-tidy"])
    #expect(runs.output.contains("trigger   do"), "\(runs.output)")
    // In any case, and as one quoted argument.
    let quoted = await machine.run(["do", "Clean Up downloads"])
    #expect(quoted.output == "tidied\n", "\(quoted.error)")
  }

  /// The gallery's Clean Downloads, imported, runs by its phrase: a week-old download goes to the Trash.
  @Test func tidyMyDownloadsRunsTheGallerysCleanDownloads() async throws {
    let machine = try Machine()
    let downloads = machine.home.appendingPathComponent("Downloads")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    let old = downloads.appendingPathComponent("old.tmp")
    try Data().write(to: old)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-10 * 86_400)], ofItemAtPath: old.path)
    let gallery = DocumentationTests.root.appendingPathComponent("workflows/clean-downloads.yml").path
    let imported = await machine.run(["import", gallery, "--yes"])
    #expect(imported.status == 0, "\(imported.error)")
    let tidied = await machine.run(["do", "tidy", "my", "downloads"])
    #expect(tidied.status == 0, "\(tidied.error)")
    #expect(tidied.output == "Moved 1 files to the Trash.\n")
    #expect(!FileManager.default.fileExists(atPath: old.path))
    #expect(
      FileManager.default.fileExists(
        atPath: machine.home.appendingPathComponent(".local/share/Trash/files/old.tmp").path))
  }

  @Test func inputsComeFromThePhrase() async throws {
    let machine = try Self.machine()
    let named = await machine.run(["do", "save", "https://swift.org", "for", "later", "as", "swift", "lang"])
    #expect(named.status == 0, "\(named.error)")
    #expect(named.output == "saved https://swift.org as swift lang\n")
    // The words after a phrase fill the one input it does not name.
    let rest = await machine.run(["do", "quiz", "me", "on", "the", "moon"])
    #expect(rest.output == "a question on the moon\n", "\(rest.error)")
    // A value that does not fit the input is refused before step 1, as '--input' is.
    let bad = await machine.run(["do", "save", "not a url", "for", "later", "as", "x"])
    assertGolden(machine.transcript(bad), named: "phrases/input-does-not-fit.txt")
    // Words after a phrase whose workflow has several inputs left are refused, saying how to give them.
    let tooMany = await machine.run(["do", "read", "later", "https://swift.org"])
    assertGolden(machine.transcript(tooMany), named: "phrases/more-than-the-phrase-takes.txt")
  }

  @Test func doAloneListsEveryPhrase() async throws {
    let machine = try Self.machine()
    let listed = await machine.run(["do"])
    assertGolden(machine.transcript(listed), named: "phrases/list.txt")
    let json = await machine.run(["do", "--json"])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let phrases = try #require(report["phrases"] as? [[String: String]])
    #expect(phrases.contains { $0["phrase"] == "save to raindrop" && $0["action"] != nil })
    #expect(phrases.contains { $0 == ["phrase": "tidy my downloads", "title": "Tidy downloads", "workflow": "tidy"] })
  }

  @Test func showPrintsThePhrases() async throws {
    let machine = try Self.machine()
    let shown = await machine.run(["show", "read-later"])
    assertGolden(machine.transcript(shown), named: "phrases/show.txt")
  }

  @Test func mistakesAreReportedAtTheirColumns() async throws {
    let machine = try Self.machine()
    try machine.write(
      "bad.yml",
      """
      flow: 1
      input:
        url: url
        tag: text
      phrases:
        - "save ${uri} now"
        - "save ${url}s"
        - "${url} later"
        - "keep ${url} ${tag}"
        - "keep ${url} and ${url}"
        - "go home"
        - "Go   HOME"
      steps:
        - show: ${input.url}
      """)
    let result = await machine.run(["validate", "bad.yml"])
    #expect(result.status == 2)
    assertGolden(machine.transcript(result), named: "phrases/invalid.txt")
  }

  @Test func clashesAreReportedAtValidate() async throws {
    let machine = try Self.machine()
    try machine.write(
      "other.yml",
      """
      flow: 1
      input:
        link: url
        label: text
      phrases: ["Tidy my downloads", "save to raindrop", "save ${link} for later as ${label}", "tidy up"]
      steps:
        - show: ${input.link}
      """)
    let result = await machine.run(["validate", "other.yml"])
    #expect(result.status == 2)
    assertGolden(machine.transcript(result), named: "phrases/clash-at-validate.txt")
    // A library workflow does not clash with itself.
    let own = await machine.run(["validate", "tidy"])
    #expect(own.status == 0, "\(own.error)")
  }

  @Test func aClashRefusesAnImport() async throws {
    let machine = try Self.machine()
    try machine.write(
      "tidy-again.yml",
      """
      flow: 1
      name: Tidy again
      phrases: ["tidy my downloads"]
      steps:
        - show: tidied again
      """)
    let result = await machine.run(["import", "tidy-again.yml", "--yes"])
    #expect(result.status == 2)
    assertGolden(machine.transcript(result), named: "phrases/clash-at-import.txt")
    #expect(!FileManager.default.fileExists(atPath: machine.library.appendingPathComponent("tidy-again.yml").path))
    // Replacing the workflow that has the phrase is no clash.
    let replaced = await machine.run(["import", "tidy-again.yml", "--yes", "--as", "tidy", "--replace"])
    #expect(replaced.status == 0, "\(replaced.error)")
    let ran = await machine.run(["do", "tidy", "my", "downloads"])
    #expect(ran.output == "tidied again\n")
  }
}
