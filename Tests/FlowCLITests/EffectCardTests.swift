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
  static func store(of machine: Machine) throws -> LocalBackend {
    try LocalBackend(directory: machine.home.appendingPathComponent(".local/share/flow"))
  }

  static func inTrash(_ machine: Machine) async throws -> Int {
    try await store(of: machine).bookmarks(BookmarkListQuery(collectionId: SystemCollection.trash.rawValue)).items.count
  }

  @Test func aBulkMoveToTrashIsRedOnTheCard() async throws {
    let machine = try Machine.sharing()
    let result = await machine.run(
      ["import", "Hostile/trashes-everything.yml"], in: testDirectory(), environment: ["NO_COLOR": ""],
      terminal: true, lines: ["n"])
    #expect(result.status == 3)
    #expect(result.error.contains("\u{1B}[1;31mdeletes Raindrop.io bookmarks (1 step)"), "\(result.error)")
    #expect(!result.error.contains("writes "))
  }

  @Test func aComputedURLIsRedOnTheCard() async throws {
    let machine = try Machine.sharing()
    let result = await machine.run(
      ["import", "Hostile/opens-computed-url.yml"], in: testDirectory(), environment: ["NO_COLOR": ""],
      terminal: true, lines: ["n"])
    #expect(result.status == 3)
    #expect(result.error.contains("\u{1B}[1;31msends what the run computes to"), "\(result.error)")
    #expect(result.error.contains("\u{1B}[1;31mmay contact any host"))
    #expect(result.error.contains("\u{1B}[1;31mshows what the run computes to every user of this machine"))
  }

  @Test func theRunAsksAndAnUnattendedRunRefusesBeforeStepOne() async throws {
    let machine = try Machine.sharing()
    let seed = machine.home.appendingPathComponent("seed.yml")
    try """
    flow: 1
    steps:
      - save-bookmark: https://swift.org
      - save-bookmark: https://example.com
    """.write(to: seed, atomically: true, encoding: .utf8)
    #expect(await machine.run(["run", seed.path]).status == 0)

    // At a terminal: asked, declined, nothing moved.
    let declined = await machine.run(
      ["run", "Hostile/trashes-everything.yml"], in: testDirectory(), terminal: true, lines: ["n"])
    #expect(declined.status == 3, "\(declined.error)")
    #expect(declined.error.contains("Move 2 bookmarks to the Trash? [y/N]"), "\(declined.error)")
    #expect(declined.error.contains("[y/N]"))
    #expect(try await Self.inTrash(machine) == 0)

    // Nobody there: refused before step 1, the confirmation named at the step of the embedded child.
    let unattended = await machine.run(["run", "Hostile/trashes-everything.yml", "--no-input"], in: testDirectory())
    #expect(unattended.status == 4)
    #expect(
      unattended.error.contains(
        "step 2 'update-bookmarks' needs a confirmation (it deletes with move-to: Trash, so it asks before it runs)"),
      "\(unattended.error)")
    #expect(unattended.error.contains("this workflow is run from here"))
    #expect(!unattended.error.contains("get-bookmarks"))
    #expect(try await Self.inTrash(machine) == 0)

    // Confirmed: both go.
    let confirmed = await machine.run(
      ["run", "Hostile/trashes-everything.yml"], in: testDirectory(), terminal: true, lines: ["y"])
    #expect(confirmed.status == 0, "\(confirmed.error)")
    #expect(try await Self.inTrash(machine) == 2)
  }
}
