import FlowTestSupport
import Foundation
import Testing

/// The docs list what the code declares, so neither drifts from the other.
struct DocumentationTests {
  static let root = testDirectory().appendingPathComponent("../..").standardizedFileURL

  /// Every `DiagnosticCode` declared anywhere in `Sources/` appears in `Documentation/Diagnostics.md`.
  @Test func everyDiagnosticCodeIsDocumented() throws {
    let docs = try String(contentsOf: Self.root.appendingPathComponent("Documentation/Diagnostics.md"), encoding: .utf8)
    let declared = try declaredCodes()
    #expect(declared.count >= 20)
    for code in declared {
      #expect(docs.contains("| `\(code)` |"), "'\(code)' is not in Documentation/Diagnostics.md")
    }
  }

  /// Running.md's synopsis is `flow run --help`'s usage line, so an option added to `run` shows up there.
  @Test func runningSynopsisIsTheUsageLine() async throws {
    let help = await Machine.run(["run", "--help"], in: Self.root).output
    let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }?.dropFirst("USAGE: ".count))
    let docs = try String(contentsOf: Self.root.appendingPathComponent("Documentation/Running.md"), encoding: .utf8)
    #expect(docs.contains("```\n\(usage)\n```"), "Running.md's synopsis is not '\(usage)'")
  }

  /// The README's documentation list names every page of Documentation/.
  @Test func theReadmeListsEveryPage() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let pages = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("Documentation").path
    ).filter { $0.hasSuffix(".md") }
    #expect(pages.count >= 20)
    for page in pages {
      #expect(readme.contains("](Documentation/\(page))"), "README.md does not list Documentation/\(page)")
    }
  }

  private func declaredCodes() throws -> [String] {
    let sources = Self.root.appendingPathComponent("Sources")
    let pattern = try Regex(#"static let \w+: Self = "([a-z0-9-]+)""#)
    var codes: [String] = []
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      guard text.contains("extension DiagnosticCode") else { continue }
      for match in text.matches(of: pattern) {
        if let code = match.output[1].substring { codes.append(String(code)) }
      }
    }
    return codes
  }
}
