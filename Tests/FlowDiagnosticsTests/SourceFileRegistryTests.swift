import Testing

@testable import FlowDiagnostics

/// Files live as long as the process, except those released (the fuzzing harness makes millions). A
/// registry of the test's own, because other tests make files at the same time.
struct SourceFileRegistryTests {
  @Test func aReleasedNumberGoesToTheNextFile() {
    let registry = SourceFile.Registry()
    let first = registry.reserve()
    registry.store(SourceFile(path: "a.yml", text: ""), at: first)
    let kept = registry.reserve()
    registry.store(SourceFile(path: "kept.yml", text: ""), at: kept)
    registry.release(first)
    let second = registry.reserve()
    registry.store(SourceFile(path: "b.yml", text: ""), at: second)
    #expect(second == first)
    #expect(registry.file(second).path == "b.yml")
    #expect(registry.file(kept).path == "kept.yml")
    #expect(registry.reserve() == 2)
  }

  @Test func releasingTwiceFreesTheNumberOnce() {
    let registry = SourceFile.Registry()
    let id = registry.reserve()
    registry.store(SourceFile(path: "a.yml", text: ""), at: id)
    registry.release(id)
    registry.release(id)
    #expect(registry.reserve() == id)
    #expect(registry.reserve() != id)
  }
}
