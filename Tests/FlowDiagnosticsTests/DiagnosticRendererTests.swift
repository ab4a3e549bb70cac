import FlowDiagnostics
import Foundation
import Testing

private func span(_ file: SourceFile, _ line: Int, _ start: Int, _ end: Int) -> SourceSpan {
  span(file, line, start, line, end)
}

private func span(_ file: SourceFile, _ line: Int, _ start: Int, _ endLine: Int, _ end: Int) -> SourceSpan {
  SourceSpan(
    file: file, start: FlowDiagnostics.SourceLocation(line: line, column: start),
    end: FlowDiagnostics.SourceLocation(line: endLine, column: end))
}

struct DiagnosticRendererTests {
  let renderer = DiagnosticRenderer()

  @Test func specFormatWithHelp() {
    let file = SourceFile(path: "save-and-tag.yml", text: "steps:\n  - show: \"Saved ${saved.titel}\"\n")
    let diagnostic = Diagnostic(
      .error, "unknown-property", "unknown property 'titel' of Bookmark", at: span(file, 2, 25, 30)
    )
    .help("did you mean 'title'?")
    #expect(
      renderer.render(diagnostic) == """
        save-and-tag.yml:2:25: error: unknown property 'titel' of Bookmark
            2 |   - show: "Saved ${saved.titel}"
              |                         ^~~~~
              = help: did you mean 'title'?

        """)
  }

  @Test func gutterWidensForLongFiles() {
    let text = String(repeating: "a: 1\n", count: 12_344) + "bad: x\n"
    let file = SourceFile(path: "big.yml", text: text)
    let output = renderer.render(Diagnostic(.warning, "x", "look here", at: span(file, 12_345, 1, 4)))
    #expect(
      output == """
        big.yml:12345:1: warning: look here
         12345 | bad: x
               | ^~~

        """)
  }

  @Test func tabsAndWideCharactersKeepCaretsAligned() {
    let file = SourceFile(path: "t.yml", text: "\tname: 日本 x\n")
    let output = renderer.render(Diagnostic(.error, "x", "here", at: span(file, 1, 11, 12)))
    #expect(
      output == """
        t.yml:1:11: error: here
            1 |     name: 日本 x
              |                ^

        """)
  }

  @Test func multiLineSpanIsUnderlinedToTheEndOfItsFirstLine() {
    let file = SourceFile(path: "m.yml", text: "text: |\n  one\n")
    let output = renderer.render(Diagnostic(.error, "x", "bad block", at: span(file, 1, 7, 3, 1)))
    #expect(output.contains("    1 | text: |\n      |       ^\n"))
  }

  @Test func noteWithItsOwnLocation() {
    let file = SourceFile(path: "d.yml", text: "name: a\nname: b\n")
    let diagnostic = Diagnostic(.error, "duplicate-key", "duplicate key 'name'", at: span(file, 2, 1, 5))
      .note("'name' is first defined here", at: span(file, 1, 1, 5))
      .note("keys must be unique")
    #expect(
      renderer.render(diagnostic) == """
        d.yml:2:1: error: duplicate key 'name'
            2 | name: b
              | ^~~~
              = note: d.yml:1:1: 'name' is first defined here
            1 | name: a
              | ^~~~
              = note: keys must be unique

        """)
  }

  @Test func fileLevelAndBareDiagnostics() {
    #expect(renderer.render(Diagnostic(.error, "x", "no such file", file: "a.yml")) == "a.yml: error: no such file\n")
    #expect(renderer.render(Diagnostic(.error, "x", "no file at all", file: nil)) == "error: no file at all\n")
  }

  @Test func collectionIsSortedAndCounted() {
    let file = SourceFile(path: "s.yml", text: "a: 1\nb: 2\n")
    var diagnostics = Diagnostics()
    diagnostics.append(Diagnostic(.warning, "x", "second", at: span(file, 2, 1, 2)))
    diagnostics.append(Diagnostic(.error, "x", "first", at: span(file, 1, 1, 2)))
    diagnostics.append(Diagnostic(.error, "x", "third", at: span(file, 2, 4, 5)))
    let output = renderer.render(diagnostics)
    #expect(
      output.components(separatedBy: "\n").filter { $0.hasPrefix("s.yml") }.map { String($0.prefix(9)) } == [
        "s.yml:1:1", "s.yml:2:1", "s.yml:2:4",
      ])
    #expect(output.hasSuffix("found 2 errors and 1 warning\n"))
    #expect(DiagnosticRenderer.summary(of: Diagnostics()) == nil)
  }

  @Test func colourTouchesOnlySeverityAndCarets() {
    let file = SourceFile(path: "c.yml", text: "a: 1\n")
    let output = DiagnosticRenderer(colors: true).render(Diagnostic(.error, "x", "msg", at: span(file, 1, 1, 2)))
    #expect(output.hasPrefix("c.yml:1:1: \u{1B}[1;31merror\u{1B}[0m: msg\n"))
    #expect(output.contains("| \u{1B}[1;31m^\u{1B}[0m"))
  }

  @Test func jsonForm() throws {
    let file = SourceFile(path: "j.yml", text: "a: 1\n")
    let diagnostic = Diagnostic(.error, "unknown-key", "unknown key 'a'", at: span(file, 1, 1, 2)).help(
      "did you mean 'b'?")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(diagnostic), as: UTF8.self)
    #expect(
      json
        == #"{"code":"unknown-key","column":1,"endColumn":2,"endLine":1,"file":"j.yml","help":["did you mean 'b'?"],"line":1,"message":"unknown key 'a'","notes":[],"severity":"error"}"#
    )
  }
}

struct SuggestionTests {
  @Test(arguments: [
    ("nmae", "name"), ("stesp", "steps"), ("titel", "title"), ("descripton", "description"), ("Name", "name"),
  ])
  func closeNamesAreSuggested(typo: String, expected: String) {
    #expect(Suggestion.closest(to: typo, among: ["name", "steps", "title", "description", "flow"]) == expected)
  }

  @Test func farNamesAreNot() {
    #expect(Suggestion.closest(to: "xyz", among: ["name", "steps"]) == nil)
    // 3 edits is too many for a short name, enough for a long one.
    #expect(Suggestion.closest(to: "nxyz", among: ["name"]) == nil)
    #expect(Suggestion.closest(to: "descrxxxion", among: ["description"]) == "description")
  }

  @Test func helpListsFewChoicesWhenNothingIsClose() {
    #expect(Suggestion.help(for: "zzz", among: ["ask", "auto"]) == "expected 'ask' or 'auto'")
    #expect(Suggestion.help(for: "zzz", among: ["a", "b", "c"], listUpTo: 2) == nil)
  }

  @Test func editDistance() {
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.editDistance("", "abc") == 3)
    #expect(Suggestion.editDistance("same", "same") == 0)
  }

  @Test func listsAndCounts() {
    #expect(List.or(["'a'", "'b'", "'c'"]) == "'a', 'b' or 'c'")
    #expect(List.and(["x"]) == "x")
    #expect(Count.of(1, "error") == "1 error")
    #expect(Count.of(3, "error") == "3 errors")
  }
}

struct TerminalSafeTests {
  /// Control characters from a file (a YAML escape, or a binary file's bytes) are shown, never sent to
  /// the terminal as they are: a hostile file cannot erase or rewrite what is printed around it.
  @Test func controlCharactersAreShownNotObeyed() {
    #expect(TerminalSafe.text("plain · text") == "plain · text")
    #expect(TerminalSafe.text("up\u{1B}[2A\u{7F}\u{9B}x") == "up\u{241B}[2A\u{2421}\u{FFFD}x")
    #expect(TerminalSafe.text("a\tb\nc") == "a b c")
    #expect(TerminalSafe.text("next\u{85}line ·") == "next\u{FFFD}line ·")
    // Trojan Source: an override would show "gnp.exe" as the end of "exe.png".
    #expect(TerminalSafe.text("photo\u{202E}gnp.exe") == "photo\u{FFFD}gnp.exe")
    #expect(TerminalSafe.text("a\u{2066}b\u{2069}c \u{202A}d") == "a\u{FFFD}b\u{FFFD}c \u{FFFD}d")
    // Neighbours of the bidirectional controls are ordinary punctuation and stay.
    #expect(TerminalSafe.text("‘quoted’ … ‰ ⁅x⁆") == "‘quoted’ … ‰ ⁅x⁆")
    let file = SourceFile(path: "bin.yml", text: "a: \u{01}\u{1B}[2J\n")
    let output = DiagnosticRenderer().render(
      Diagnostic(.error, "x", "unknown action '\u{1B}[2K'", at: span(file, 1, 4, 5)).help("not '\u{1B}]0;t\u{07}'"))
    #expect(!output.contains("\u{1B}") && !output.contains("\u{01}") && !output.contains("\u{07}"), "\(output)")
    #expect(
      output == """
        bin.yml:1:4: error: unknown action '␛[2K'
            1 | a: ␁␛[2J
              |    ^
              = help: not '␛]0;t␇'

        """)
  }
}
