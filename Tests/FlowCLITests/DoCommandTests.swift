import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// `flow do`: its options anywhere on the line, its help, its JSON and its did-you-mean.
struct DoCommandTests {
  @Test func optionsAfterThePhraseAreOptionsNotWords() async throws {
    let machine = try RaindropWorkflowTests.machine()
    let saved = await machine.run(["do", "save", "to", "raindrop", "https://y.org", "--yes", "--backend", "local"])
    #expect(saved.status == 0)
    #expect(saved.output == "https://y.org — y.org\n")
    #expect(saved.error == "backend: local (--backend)\n")
    let found = await machine.run(["do", "search", "raindrop", "y.org", "--json"])
    #expect(found.status == 0)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any])
    let bookmarks = try #require(report["output"] as? [[String: Any]])
    #expect(bookmarks.map { $0["link"] as? String } == ["https://y.org"])
    #expect(report["backend"] as? String == "local")
  }

  @Test func wordsAfterADoubleDashAreWords() async throws {
    let machine = try RaindropWorkflowTests.machine()
    _ = await machine.run(["do", "save", "to", "raindrop", "https://example.com/--json"])
    let found = await machine.run(["do", "search", "raindrop", "--", "--json"])
    #expect(found.status == 0)
    // Searched for the text '--json' (a negated word), not asked for JSON.
    #expect(!found.output.hasPrefix("{"))
    // The '--' itself is not part of the value, wherever it stands.
    for arguments in [
      ["save", "to", "raindrop", "--", "https://z.example"], ["save", "--", "to", "raindrop", "w.example"],
    ] {
      let saved = await machine.run(["do"] + arguments)
      #expect(saved.status == 0, "\(arguments): \(saved.error)")
    }
    let listed = await machine.run(["do", "search", "raindrop", "example", "--json"])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
    let links = (report["output"] as? [[String: Any]])?.compactMap { $0["link"] as? String }
    #expect(Set(links ?? []) == ["https://example.com/--json", "https://z.example", "https://w.example"])
  }

  /// Before '--', a mistyped option is a usage error with a suggestion, not words of the value.
  @Test func anUnknownOptionBeforeADoubleDashIsAUsageError() async throws {
    let machine = try RaindropWorkflowTests.machine()
    let typo = await machine.run(["do", "search", "raindrop", "swift", "--jsn"])
    #expect(typo.status == 2)
    #expect(typo.output == "")
    #expect(
      typo.error.hasPrefix(
        "error: unknown option '--jsn'\n      = help: did you mean '--json'? Write it after '--' if it is part of the value\n"
      ))
    let unknown = await machine.run(["do", "save", "to", "raindrop", "https://q.example", "--bogus=1"])
    #expect(unknown.status == 2)
    #expect(
      unknown.error.hasPrefix(
        "error: unknown option '--bogus'\n      = help: write it after '--' if it is part of the value\n"))
  }

  /// The report has the same shape as `flow run --json`'s (Documentation/JSON.md).
  @Test func jsonReport() async throws {
    let machine = try RaindropWorkflowTests.machine()
    let result = await machine.run(["do", "search", "raindrop", "nothing", "--json"])
    #expect(result.status == 0)
    #expect(result.error == "")
    assertGolden(transcript(result), named: "do/json.txt")
  }

  @Test func phrasesAsJSON() async throws {
    let result = await Machine.run(["do", "--json"], in: try temporaryDirectory())
    #expect(result.status == 0)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let phrases = try #require(report["phrases"] as? [[String: String]])
    #expect(
      phrases.contains(["phrase": "save to raindrop", "title": "Save Bookmark", "action": "raindrop.save-bookmark"]))
  }

  @Test func helpIsHelp() async throws {
    let result = await Machine.run(["do", "--help"], in: try temporaryDirectory())
    #expect(result.status == 0)
    #expect(result.output.contains("USAGE: flow do [<words> ...]"))
    #expect(result.error == "")
  }

  @Test func misspeltPhraseBeforeAValueSuggestsTheClosest() async throws {
    let machine = try RaindropWorkflowTests.machine()
    var transcripts = ""
    for arguments in [
      ["do", "sve", "to", "raindrop", "https://github.com/apple/swift-argument-parser"],
      ["do", "serch", "raindrop", "swift"], ["do", "make", "coffee"],
    ] {
      let result = await machine.run(arguments)
      #expect(result.status == 2)
      transcripts += "$ flow \(arguments.joined(separator: " "))\n" + transcript(result) + "\n"
    }
    assertGolden(transcripts, named: "do/misspelt-phrase.txt")
  }
}
