import FlowBasics
import FlowIntents
import Testing

@testable import FlowRuntime

/// The checker's memo of the actions it just looked up gives what the registry gives, however many
/// actions a walk names, and never keeps a failure.
struct RecentDescriptorsTests {
  @Test func givesWhatTheRegistryGivesForMoreActionsThanItKeeps() throws {
    let ids = registry.descriptors.prefix(20).map(\.id)
    #expect(ids.count == 20)
    var recent = RecentDescriptors()
    for _ in 0..<3 {
      for id in ids {
        let remembered = try recent.descriptor(for: id, in: registry)
        #expect(remembered === (try registry.descriptor(for: id)))
        #expect(remembered.id == id)
      }
    }
  }

  @Test func anUnknownActionIsReportedEachTime() throws {
    var recent = RecentDescriptors()
    _ = try recent.descriptor(for: "text", in: registry)
    for _ in 0..<2 {
      #expect(throws: IntentLookupError.self) { try recent.descriptor(for: "no-such-action", in: registry) }
    }
  }
}
