import FlowDiagnostics
import Testing

/// Files leave the registry with the last thing that holds them (issue 16, item 14): a scheduler that
/// reads a library file again at every edit keeps only the versions in use.
struct SourceRegistryTests {
  /// A megabyte a file, so that what other tests hold at the same time is small beside it.
  static func file(_ index: Int) -> SourceFile {
    SourceFile(path: "big-\(index).yml", bytes: [UInt8](repeating: 0x61, count: 1 << 20))
  }

  @Test func filesNoLongerHeldAreReleased() {
    let before = SourceFile.registered.bytes
    for index in 0..<100 {
      let file = Self.file(index)
      #expect(file.bytes.count == 1 << 20)
    }
    // Without release, all 100 (100 MiB) would still be registered.
    #expect(SourceFile.registered(matching: { $0.path.hasPrefix("big-") }) == 0)
    #expect(SourceFile.registered.bytes - before < 10 << 20)
  }

  @Test func aDiagnosticKeepsItsFile() {
    let diagnostic: Diagnostic = {
      let file = SourceFile(path: "held.yml", text: "flow: 1\nstesp: []\n")
      let span = SourceSpan(
        file: file, start: SourceLocation(line: 2, column: 1), end: SourceLocation(line: 2, column: 6))
      return Diagnostic(.error, "unknown-key", "unknown key 'stesp'", at: span)
        .note("here too", at: span)
    }()
    let rendered = DiagnosticRenderer(colors: false).render(diagnostic)
    #expect(rendered.contains("held.yml:2:1: error: unknown key 'stesp'"))
    #expect(rendered.contains("2 | stesp: []"))
  }

  @Test func spansOfAFileStillHeldFindIt() {
    let file = SourceFile(path: "kept.yml", text: "a\n")
    let span = SourceSpan(file: file, at: SourceLocation(line: 1, column: 1))
    #expect(span.file === file)
    withExtendedLifetime(file) {}
  }
}
