import FlowModel
import Testing

/// How a phrase matches typed words: words one for one in any case, an input as few words as let the
/// rest match (the last one every word left), the rest after the phrase.
struct PhraseMatchTests {
  static func phrase(_ text: String, inputs: [String] = ["url", "tag"]) throws -> Phrase {
    let declared = inputs.map { "  \($0): text\n" }.joined()
    let (workflow, diagnostics) = decode("flow: 1\ninput:\n\(declared)phrases: [\"\(text)\"]\nsteps: []\n")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(workflow?.phrases.first?.value)
  }

  @Test func wordsMatchInAnyCase() throws {
    let tidy = try Self.phrase("Tidy my  downloads")
    #expect(tidy.text == "Tidy my downloads")
    #expect(tidy.match(["TIDY", "my", "Downloads"])?.values == [:])
    #expect(tidy.match(["tidy", "my", "downloads", "now"])?.rest == ["now"])
    #expect(tidy.match(["tidy", "my"]) == nil)
    #expect(tidy.match(["tidy", "your", "downloads"]) == nil)
  }

  @Test func inputsTakeAsFewWordsAsLetTheRestMatch() throws {
    let save = try Self.phrase("save ${url} for later as ${tag}")
    let matched = try #require(save.match(["save", "a", "for", "b", "for", "later", "as", "x", "y"]))
    #expect(matched.values == ["url": "a for b", "tag": "x y"])
    #expect(matched.rest == [])
    #expect(save.match(["save", "for", "later", "as", "x"]) == nil)
    #expect(save.key == "save ${} for later as ${}")
    #expect(save.wordCount == 4)
    #expect(save.inputs == ["url", "tag"])
  }
}
