import FlowTestSupport
import Foundation
import RaindropLocal
import RaindropModel
import Testing

/// Issue 16, items 1 and 3, end to end: a shared file whose embedded child trashes every bookmark, or
/// opens a computed URL, is red on the import card; the trashing run asks first; and an unattended run
/// refuses before step 1, naming the confirmation it would need.
struct EffectCardTests {
  /// The store of a home's `local` backend.
  static func store(of home: SharingHome) throws -> LocalBackend {
    try LocalBackend(directory: home.root.appendingPathComponent(".local/share/flow"))
  }

  static func inTrash(_ home: SharingHome) async throws -> Int {
    try await store(of: home).bookmarks(BookmarkListQuery(collectionId: SystemCollection.trash.rawValue)).items.count
  }

  @Test func aBulkMoveToTrashIsRedOnTheCard() async throws {
    let home = try SharingHome()
    let result = await home.flow(
      ["import", "Hostile/trashes-everything.yml"], in: testDirectory(), terminal: true, lines: ["n"],
      extra: ["NO_COLOR": ""])
    #expect(result.status == 3)
    #expect(result.error.contains("\u{1B}[1;31mdeletes Raindrop.io bookmarks (1 step)"), "\(result.error)")
    #expect(!result.error.contains("writes "))
  }

  @Test func aComputedURLIsRedOnTheCard() async throws {
    let home = try SharingHome()
    let result = await home.flow(
      ["import", "Hostile/opens-computed-url.yml"], in: testDirectory(), terminal: true, lines: ["n"],
      extra: ["NO_COLOR": ""])
    #expect(result.status == 3)
    #expect(result.error.contains("\u{1B}[1;31msends what the run computes to"), "\(result.error)")
    #expect(result.error.contains("\u{1B}[1;31mmay contact any host"))
    #expect(result.error.contains("\u{1B}[1;31mshows what the run computes to every user of this machine"))
  }

  @Test func theRunAsksAndAnUnattendedRunRefusesBeforeStepOne() async throws {
    let home = try SharingHome()
    let seed = home.root.appendingPathComponent("seed.yml")
    try """
    flow: 1
    steps:
      - save-bookmark: https://swift.org
      - save-bookmark: https://example.com
    """.write(to: seed, atomically: true, encoding: .utf8)
    #expect(await home.flow(["run", seed.path]).status == 0)

    // At a terminal: asked, declined, nothing moved.
    let declined = await home.flow(
      ["run", "Hostile/trashes-everything.yml"], in: testDirectory(), terminal: true, lines: ["n"])
    #expect(declined.status == 3, "\(declined.error)")
    #expect(declined.error.contains("Update "), "\(declined.error)")
    #expect(declined.error.contains("[y/N]"))
    #expect(try await Self.inTrash(home) == 0)

    // Nobody there: refused before step 1, the confirmation named at the step of the embedded child.
    let unattended = await home.flow(["run", "Hostile/trashes-everything.yml", "--no-input"], in: testDirectory())
    #expect(unattended.status == 4)
    #expect(
      unattended.error.contains(
        "step 2 'update-bookmarks' needs a confirmation (it deletes with move-to: Trash, so it asks before it runs)"),
      "\(unattended.error)")
    #expect(unattended.error.contains("this workflow is run from here"))
    #expect(!unattended.error.contains("get-bookmarks"))
    #expect(try await Self.inTrash(home) == 0)

    // Confirmed: both go.
    let confirmed = await home.flow(
      ["run", "Hostile/trashes-everything.yml"], in: testDirectory(), terminal: true, lines: ["y"])
    #expect(confirmed.status == 0, "\(confirmed.error)")
    #expect(try await Self.inTrash(home) == 2)
  }
}
