import FlowDiagnostics
import FlowPresentation
import Foundation
import Testing

/// The terminal drawing: widths, boxes, the margin, colour only when asked.
struct RendererTests {
  static let nested = """
    flow: 1
    name: A workflow whose name is long enough to wrap on a narrow terminal
    description: It nests blocks three deep, so that the boxes and the margin have to share the width.
    steps:
      - get-bookmarks:
          search-text: "#swift and some words to make the sentence long enough to wrap"
        as: found
      - for-each: ${found}
        do:
          - if: ${item.title} contains "Swift"
            then:
              - menu: What now with this one, which has a long title?
                options:
                  Delete:
                    - delete-bookmark: ${item}
                  Keep: []
    """

  /// Down to where three nested boxes leave a sentence its minimum, every line fits; below it lines grow
  /// wider rather than lose their boxes.
  @Test(arguments: [18, 34, 44, 60, 80, 120])
  func everyLineFitsAndEveryBoxIsWhole(width: Int) throws {
    let text = OutlineRenderer(width: width, colors: false).render(try outline(Self.nested))
    for line in text.split(separator: "\n") where width >= 34 {
      #expect(DisplayWidth.of(line) <= width, "wider than \(width): \(line)")
    }
    // Inside the for-each every line carries its bar, from the header to the end.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex { $0.contains("┌ Repeat") })
    let end = try #require(lines.lastIndex { $0.contains("└ End Repeat") })
    let column = try #require(lines[end].firstIndex(of: "└")).utf16Offset(in: lines[end])
    for line in lines[(start + 1)..<end] {
      let scalars = Array(line)
      #expect(scalars.count > column && "│├".contains(scalars[column]), "box cut at width \(width): \(line)")
    }
  }

  @Test func theMarginMovesUnderTheStepWhenTooNarrow() throws {
    let outline = try outline(Self.nested)
    let wide = OutlineRenderer(width: 120).render(outline)
    #expect(wide.contains(where: { _ in true }))
    let searchLine = try #require(wide.split(separator: "\n").first { $0.contains("Get bookmarks") })
    #expect(searchLine.hasSuffix("contacts api.raindrop.io"))
    let narrow = OutlineRenderer(width: 44).render(outline)
    let lines = narrow.split(separator: "\n").map(String.init)
    let index = try #require(lines.firstIndex { $0.contains("Get bookmarks") })
    #expect(!lines[index].contains("contacts"))
    #expect(lines[(index + 1)...].first { $0.contains("contacts api.raindrop.io") } != nil)
  }

  @Test func colourOnlyWhenAsked() throws {
    let outline = try outline(Self.nested)
    #expect(!OutlineRenderer(width: 80, colors: false).render(outline).contains("\u{1B}["))
    let coloured = OutlineRenderer(width: 80, colors: true).render(outline)
    #expect(coloured.contains("\u{1B}[36m⟨found⟩\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[1;31mdeletes · api.raindrop.io\u{1B}[0m"))
    // Without its escapes, the coloured text is the plain text.
    let stripped = coloured.replacing(#/\x1B\[[0-9;]*m/#, with: "")
    #expect(stripped == OutlineRenderer(width: 80, colors: false).render(outline))
  }

  @Test func summaryLineSaysCountsDatesAndSignature() {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let day: TimeInterval = 86_400
    #expect(
      SummaryLine(actionCount: 7, created: now - 61 * day, modified: nil, signature: .trusted(name: "ada"), now: now)
        .text == "7 actions · created 2 months ago · signed by ada (trusted)")
    #expect(
      SummaryLine(actionCount: 1, created: nil, modified: now - 3 * 3600, signature: .unsigned, now: now).text
        == "1 action · modified 3 hours ago · unsigned")
    #expect(
      SummaryLine(actionCount: 2, created: now - 400 * day, modified: now - 8 * day, signature: .tampered, now: now)
        .text
        == "2 actions · created 1 year ago · modified 8 days ago · tampered: the signature does not match the file")
    #expect(
      SummaryLine(
        actionCount: 2, created: nil, modified: nil, signature: .unknownKey(fingerprint: "SHA256:ab12"), now: now
      )
      .text == "2 actions · signed by an unknown key (SHA256:ab12)")
    #expect(SignatureStatus.malformed.words == "malformed signature")
  }

  static let ages: [(Double, String)] = [
    (30.0, "just now"), (-600, "just now"), (90, "1 minute ago"), (3 * 3600, "3 hours ago"), (30 * 3600, "yesterday"),
    (5 * 86_400, "5 days ago"), (20 * 86_400, "2 weeks ago"), (75 * 86_400, "2 months ago"),
    (800 * 86_400, "2 years ago"),
  ]

  @Test(arguments: ages)
  func relativeTimes(seconds: Double, words: String) {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    #expect(RelativeTime.since(now - seconds, now: now) == words)
  }
}

/// The share page's HTML escaping.
struct SharePageEscapeTests {
  @Test func markupAndBidirectionalControlsAreEscaped() {
    #expect(
      SharePage.escape(#"<a href="x">O'Neil & co</a>"#) == "&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;")
    // A browser obeys a right-to-left override as a terminal does: "report-\u{202E}cod.exe" would read
    // "report-exe.doc".
    #expect(SharePage.escape("report-\u{202E}cod.exe \u{2067}x\u{2069}") == "report-&#xFFFD;cod.exe &#xFFFD;x&#xFFFD;")
    #expect(SharePage.escape("‘quoted’ … ‰") == "‘quoted’ … ‰")
  }
}

/// The share page's tile draws the workflow's `icon:` with lines, needing no font.
struct IconGlyphTests {
  @Test func symbolNamesBecomeDrawings() throws {
    let trash = try #require(IconGlyph.svg(for: "trash"))
    #expect(trash.hasPrefix("<svg ") && trash.hasSuffix("</svg>") && trash.contains("<path"))
    #expect(IconGlyph.svg(for: "Star.Fill") == IconGlyph.svg(for: "star"))
    #expect(IconGlyph.draws("hand-wave"))
    #expect(IconGlyph.svg(for: "no-such-symbol") == nil)
    #expect(IconGlyph.svg(for: nil) == nil)
    // Drawn with lines, never with a character a font must have: nothing outside ASCII in any drawing.
    for name in IconGlyph.names {
      let svg = try #require(IconGlyph.svg(for: name))
      #expect(svg.unicodeScalars.allSatisfy { $0.isASCII }, "\(name)")
    }
  }
}
