import FlowTestSupport
import Foundation
import Testing

/// The share page in a real browser: Debian's Chromium, driven headless by Playwright (PyPI). One test:
/// starting a browser takes a second or two.
struct SharePageTests {
  static let python = ReferenceTool(
    "python3", install: "Scripts/setup.sh (Debian's chromium; pip install playwright)")

  @Test func loadsCleanShowsEveryStepAndDownloadsTheExactFile() async throws {
    let machine = try Machine.sharing()
    let page = machine.home.appendingPathComponent("empty-trash.html")
    let file = machine.home.appendingPathComponent("empty-trash.flow.yml")
    let html = await machine.run(["export", "--html", "empty-trash", "--sign", "-o", page.path])
    #expect(html.status == 0, "\(html.error)")
    let yml = await machine.run(["export", "empty-trash", "--sign", "-o", file.path])
    #expect(yml.status == 0)
    let text = try String(contentsOf: page, encoding: .utf8)
    #expect(!text.contains("http://") && !text.contains("src="), "no external asset")
    #expect(text.contains("default-src 'none'"))
    // Trust is the reader's to give: the page names the signer with the key's fingerprint.
    let fingerprint = await machine.run(["keys", "list", "--json"]).output
    let key = try #require(fingerprint.split(separator: "\"").first { $0.hasPrefix("SHA256:") })
    #expect(text.contains("signed by ada (key \(key))"))
    #expect(!text.contains("(trusted)"))

    // Every step position flow show numbers.
    let show = await machine.run(["show", "empty-trash", "--json"])
    let outline = try #require(try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])
    func positions(_ steps: [[String: Any]]) -> [String] {
      steps.flatMap { step in
        [step["position"] as? String ?? "?"]
          + ((step["branches"] as? [[String: Any]]) ?? []).flatMap { positions($0["steps"] as? [[String: Any]] ?? []) }
      }
    }
    let expected = positions(outline["steps"] as? [[String: Any]] ?? [])
    #expect(expected.count == 10)

    let screenshot = DocumentationTests.root.appendingPathComponent(".build/share-page.png")
    let script = testDirectory().appendingPathComponent("SharePage/check_share_page.py")
    let run = try #require(try Self.python.run([script.path, page.path, file.path, screenshot.path]))
    #expect(run.status == 0, "\(run.error)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)\(run.error)")
    #expect((report["errors"] as? [String]) == [])
    #expect((report["outside"] as? [String]) == [])
    #expect((report["positions"] as? [String]) == expected)
    #expect(report["downloadMatches"] as? Bool == true)
    #expect(report["command"] as? String == "flow import empty-trash.flow.yml")
    #expect(report["title"] as? String == "Empty Trash · a flow workflow")
    #expect(FileManager.default.fileExists(atPath: screenshot.path))
    // The tile's trash can is a drawing, not an emoji: no text to render with a font this machine may
    // not have (it has no colour-emoji font), and pixels painted at its size.
    let glyph = try #require(report["glyph"] as? [String: Any])
    #expect((glyph["text"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) == "")
    #expect(glyph["svg"] as? Bool == true, "\(glyph)")
    #expect(glyph["painted"] as? Bool == true, "\(glyph)")
    #expect((glyph["width"] as? Double ?? 0) >= 20, "\(glyph)")
  }
}
