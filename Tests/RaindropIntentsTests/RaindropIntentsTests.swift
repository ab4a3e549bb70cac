import FlowHTTP
import FlowIntents
import FlowTestSupport
import Foundation
import RaindropIntents
import RaindropLocal
import RaindropModel
import RaindropREST
import RaindropStubServer
import Testing

/// A local store in a fresh folder, and a way to run the Raindrop intents against it.
struct Harness {
  let store: LocalBackend
  let registry = IntentRegistry(catalogs: [RaindropCatalog.self])

  init() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "raindrop-intents-\(UUID().uuidString)")
    store = try LocalBackend(directory: directory)
  }

  func run(
    _ id: String, _ values: [String: FlowValue] = [:], answers: [ScriptedPrompter.Answer] = [],
    backend: (any BookmarkBackend)? = nil
  ) async throws -> FlowValue {
    let context = IntentContext(prompter: ScriptedPrompter(answers))
      .with(IntentService(backend: backend ?? store))
    return try await registry.descriptor(for: id).run(values: values, context: context).value
  }

  func save(_ link: String, tags: [String] = [], collection: Int? = nil) async throws -> Bookmark {
    try await store.createBookmark(NewBookmark(link: link, tags: tags, collectionId: collection))
  }
}

extension FlowValue {
  var entity: EntityValue? { if case .entity(let entity) = self { entity } else { nil } }
  var items: [FlowValue] { if case .list(let items) = self { items } else { [] } }
  subscript(property: String) -> FlowValue? { self.property(named: property) }
}

struct RaindropCatalogTests {
  @Test func everyDeclarationIsValid() {
    #expect(CatalogValidator.validate([RaindropCatalog.self]).map(\.description) == [])
  }

  @Test func parametersMatchTheSpec() throws {
    let registry = IntentRegistry(catalogs: [RaindropCatalog.self])
    let keys = { (id: String) in try registry.descriptor(for: id).parameters.map(\.key) }
    #expect(try keys("save-bookmark") == ["url", "title", "collection", "tags", "skip-if-exists"])
    #expect(try keys("get-bookmarks") == ["collection", "search-text", "sort-by", "max-results"])
    #expect(try keys("get-collections") == [])
    #expect(try keys("create-collection") == ["title"])
    #expect(
      try keys("update-bookmark") == ["bookmark", "add-tags", "remove-tags", "favorite", "title", "note", "move-to"])
    #expect(try keys("delete-bookmark") == ["bookmark"])
    let delete = try registry.descriptor(for: "raindrop.delete-bookmark")
    #expect(delete.requiresConfirmation && delete.sideEffect == .destructive)
    let sort = try #require(try registry.descriptor(for: "get-bookmarks").parameter("sort-by")?.choices)
    #expect(sort.map(\.id) == ["newest-first", "oldest-first", "title-a-z", "title-z-a"])
    #expect(sort.map(\.title) == ["Newest First", "Oldest First", "Title (A to Z)", "Title (Z to A)"])
  }

  @Test func bookmarkEntityHasEverySeedPropertyAndMore() throws {
    let registry = IntentRegistry(catalogs: [RaindropCatalog.self])
    let output = try #require(try registry.descriptor(for: "save-bookmark").outputType)
    #expect(
      output.properties.map(\.key) == [
        "id", "title", "link", "note", "tags", "collection-id", "favorite", "created", "excerpt", "domain", "type",
        "cover",
        "last-update", "existed",
      ])
    #expect(output.properties.first { $0.key == "existed" }?.type == .boolean)
  }
}

struct RaindropIntentTests {
  @Test func saveDefaultsToUnsortedAndTitlesWithTheLink() async throws {
    let harness = try Harness()
    let saved = try await harness.run("save-bookmark", ["url": "https://www.swift.org/blog", "tags": ["a"]])
    #expect(saved["collection-id"] == .number(-1))
    #expect(saved["title"] == .text("https://www.swift.org/blog"))
    #expect(saved["domain"] == .text("swift.org"))
    #expect(saved["tags"] == .list(["a"]))
  }

  @Test func saveIntoACollectionFoundByTitle() async throws {
    let harness = try Harness()
    _ = try await harness.run("create-collection", ["title": "Reading List"])
    _ = try await harness.run("create-collection", ["title": "Reading"])
    // An exact title wins over titles that merely contain the text.
    let saved = try await harness.run("save-bookmark", ["url": "https://a.example", "collection": "reading"])
    let collections = try await harness.store.collections()
    #expect(saved["collection-id"] == .number(Double(collections.first { $0.title == "Reading" }?.id ?? 0)))
  }

  @Test func severalMatchingCollectionsAskWhichOne() async throws {
    let harness = try Harness()
    _ = try await harness.run("create-collection", ["title": "Work Notes"])
    _ = try await harness.run("create-collection", ["title": "Work Links"])
    let saved = try await harness.run(
      "save-bookmark", ["url": "https://a.example", "collection": "work"], answers: [.choice(1)])
    let links = try await harness.store.collections().first { $0.title == "Work Links" }
    #expect(saved["collection-id"] == .number(Double(links?.id ?? 0)))
    await #expect(throws: AppIntentError.self) {
      _ = try await harness.run("save-bookmark", ["url": "https://b.example", "collection": "work"])
    }
  }

  @Test func unknownCollectionNamesTheClosest() async throws {
    let harness = try Harness()
    _ = try await harness.run("create-collection", ["title": "Recipes"])
    do {
      _ = try await harness.run("save-bookmark", ["url": "https://a.example", "collection": "Recipies"])
      Issue.record("expected an error")
    } catch let error as AppIntentError {
      #expect(error.kind == .entityNotFound)
      #expect(error.help == "did you mean 'Recipes'?")
    }
  }

  @Test func skipIfExistsReturnsTheSavedBookmark() async throws {
    let harness = try Harness()
    let first = try await harness.save("https://swift.org")
    let again = try await harness.run("save-bookmark", ["url": "https://swift.org", "skip-if-exists": true])
    #expect(again["id"] == .number(Double(first.id)))
    // It says it found one (issue 14, item 9); a bookmark it saved says it did not.
    #expect(again["existed"] == .boolean(true))
    let fresh = try await harness.run("save-bookmark", ["url": "https://example.com", "skip-if-exists": true])
    #expect(fresh["existed"] == .boolean(false))
    #expect(try await harness.run("get-bookmarks").items.allSatisfy { $0["existed"] == .boolean(false) })
    #expect(try await harness.store.bookmarks(BookmarkListQuery()).count == 2)
  }

  @Test func getBookmarksSortsSearchesAndPaginates() async throws {
    let harness = try Harness()
    for index in 1...60 {
      _ = try await harness.save("https://example.com/\(index)", tags: index % 2 == 0 ? ["even"] : [])
    }
    #expect(try await harness.run("get-bookmarks").items.count == 25)
    let oldest = try await harness.run("get-bookmarks", ["sort-by": "Oldest First", "max-results": 3])
    #expect(
      oldest.items.compactMap { $0["link"]?.text } == [
        "https://example.com/1", "https://example.com/2", "https://example.com/3",
      ])
    #expect(try await harness.run("get-bookmarks", ["max-results": 55]).items.count == 55)
    #expect(try await harness.run("get-bookmarks", ["max-results": "all"]).items.count == 60)
    #expect(try await harness.run("get-bookmarks", ["search-text": "#even", "max-results": "all"]).items.count == 30)
    await #expect(throws: AppIntentError.self) { _ = try await harness.run("get-bookmarks", ["max-results": 0]) }
  }

  @Test func updateAddsAndRemovesTagsWithoutRegardToCase() async throws {
    let harness = try Harness()
    let bookmark = try await harness.save("https://swift.org", tags: ["Inbox", "keep"])
    let updated = try await harness.run(
      "update-bookmark",
      [
        "bookmark": .number(Double(bookmark.id)), "add-tags": ["KEEP", "later"], "remove-tags": ["inbox"],
        "favorite": true,
      ])
    #expect(updated["tags"] == .list(["keep", "later"]))
    #expect(updated["favorite"] == .boolean(true))
  }

  /// Title, note and collection (issue 14, item 9) through both backends: the local store, and the REST
  /// client against the stand-in server, where a value already there sends no PUT at all.
  @Test(arguments: [false, true]) func updateRetitlesNotesAndMoves(throughREST: Bool) async throws {
    let harness = try Harness()
    let server = try RaindropStubServer(store: harness.store)
    let client: (any BookmarkBackend)? =
      throughREST ? RaindropClient(token: "test-token", baseURL: try await server.start()) : nil
    defer { Task { await server.stop() } }
    _ = try await harness.run("create-collection", ["title": "Reading"])
    let reading = try #require(try await harness.store.collections().first { $0.title == "Reading" })
    let bookmark = try await harness.save("https://swift.org", tags: ["keep"])
    let id = FlowValue.number(Double(bookmark.id))
    let updated = try await harness.run(
      "update-bookmark", ["bookmark": id, "title": "Swift", "note": "read later", "move-to": "Reading"],
      backend: client)
    #expect(updated["title"] == .text("Swift"))
    #expect(updated["note"] == .text("read later"))
    #expect(updated["collection-id"] == .number(Double(reading.id)))
    #expect(updated["tags"] == .list(["keep"]))
    let stored = try await harness.store.bookmark(id: bookmark.id)
    #expect(stored.title == "Swift" && stored.note == "read later" && stored.collectionId == reading.id)
    await server.resetCounts()
    // The same values again: nothing differs, so nothing is sent.
    _ = try await harness.run(
      "update-bookmark", ["bookmark": id, "title": "Swift", "note": "read later", "move-to": "Reading"],
      backend: client)
    #expect(await server.requestCounts["PUT /raindrop/{id}"] == nil)
  }

  /// Moving one bookmark to Trash deletes it, so it asks as delete-bookmark does (issue 14, item 9).
  @Test func moveToTrashAsksFirst() async throws {
    let harness = try Harness()
    let bookmark = try await harness.save("https://swift.org")
    let values: [String: FlowValue] = ["bookmark": .number(Double(bookmark.id)), "move-to": "Trash"]
    await #expect(throws: AppIntentError.self) { _ = try await harness.run("update-bookmark", values) }
    #expect(try await harness.store.bookmark(id: bookmark.id).collectionId == -1)
    _ = try await harness.run("update-bookmark", values, answers: [.confirmation(true)])
    #expect(try await harness.store.bookmark(id: bookmark.id).collectionId == -99)
  }

  @Test func deleteMovesToTrashAfterConfirmingThenRemoves() async throws {
    let harness = try Harness()
    let bookmark = try await harness.save("https://swift.org")
    let id = FlowValue.number(Double(bookmark.id))
    await #expect(throws: AppIntentError.self) { _ = try await harness.run("delete-bookmark", ["bookmark": id]) }
    _ = try await harness.run("delete-bookmark", ["bookmark": id], answers: [.confirmation(true)])
    #expect(try await harness.store.bookmark(id: bookmark.id).collectionId == -99)
    _ = try await harness.run("delete-bookmark", ["bookmark": id], answers: [.confirmation(true)])
    await #expect(throws: RaindropError.self) { _ = try await harness.store.bookmark(id: bookmark.id) }
  }

  /// A bulk move to Trash deletes as delete-bookmark does, so it asks as delete-bookmark does (issue 16):
  /// unanswered or declined, nothing moves; a move elsewhere asks nothing.
  @Test func bulkMoveToTrashAsksFirst() async throws {
    let harness = try Harness()
    var ids: [FlowValue] = []
    for link in ["https://swift.org", "https://example.com"] {
      ids.append(.number(Double(try await harness.save(link).id)))
    }
    let values: [String: FlowValue] = ["bookmarks": .list(ids), "move-to": "Trash"]
    let descriptor = try harness.registry.descriptor(for: "update-bookmarks")
    func run(_ answers: [ScriptedPrompter.Answer], _ values: [String: FlowValue]) async throws -> ScriptedPrompter {
      let prompter = ScriptedPrompter(answers)
      let context = IntentContext(prompter: prompter).with(IntentService(backend: harness.store))
      _ = try await descriptor.run(values: values, context: context)
      return prompter
    }
    let inTrash = { () async throws -> Int in
      try await harness.store.bookmarks(BookmarkListQuery(collectionId: -99)).items.count
    }
    // A move elsewhere: a change, asked of nobody.
    let moved = try await run([], ["bookmarks": .list(ids), "move-to": "Unsorted", "add-tags": ["kept"]])
    #expect(await moved.asked == [])
    await #expect(throws: AppIntentError.self) { _ = try await run([], values) }
    await #expect(throws: AppIntentError.self) { _ = try await run([.confirmation(false)], values) }
    #expect(try await inTrash() == 0)
    let confirmed = try await run([.confirmation(true)], values)
    #expect(await confirmed.asked.count == 1)
    #expect(await confirmed.asked.first?.hasPrefix("Move ") == true)
    #expect(await confirmed.asked.first?.hasSuffix(" to the Trash?") == true)
    #expect(try await inTrash() == 2)
  }

  @Test func collectionsListSystemAndUserCollections() async throws {
    let harness = try Harness()
    _ = try await harness.run("create-collection", ["title": "Code"])
    let titles = try await harness.run("get-collections").items.compactMap { $0["title"]?.text }
    #expect(titles.prefix(3) == ["All bookmarks", "Unsorted", "Trash"])
    #expect(titles.last == "Code")
  }

  @Test func collectionSubtitlesCountTheirBookmarks() async throws {
    let harness = try Harness()
    let code = try await harness.run("create-collection", ["title": "Code"])
    let id = try #require(code["id"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } })
    _ = try await harness.save("https://a.example", collection: id)
    var subtitles: [String?] {
      get async throws { try await harness.run("get-collections").items.map { $0.entity?.subtitle } }
    }
    #expect(try await subtitles.last == "1 item")
    _ = try await harness.save("https://b.example", collection: id)
    #expect(try await subtitles.last == "2 items")
  }
}

/// Requests per operation, counted at the stand-in server.
struct RaindropRequestTests {
  @Test func updateOneCostsAGetAndAPutAndBulkCostsOnePerHundred() async throws {
    let harness = try Harness()
    let server = try RaindropStubServer(store: harness.store)
    let url = try await server.start()
    let client = RaindropClient(token: "test-token", baseURL: url)
    let ids = try await (1...250).asyncMap { try await harness.save("https://example.com/\($0)").id }
    await server.resetCounts()
    _ = try await harness.run(
      "update-bookmark", ["bookmark": .number(Double(ids[0])), "add-tags": ["x"]], backend: client)
    // One check of the login for the run, one GET for the bookmark (entity), one GET to diff, one PUT.
    let single = await server.totalRequests
    await server.resetCounts()
    let updated = try await harness.run(
      "update-bookmarks", ["bookmarks": .list(ids.map { .number(Double($0)) }), "add-tags": ["bulk"]], backend: client)
    let bulk = await server.totalRequests
    await server.stop()
    #expect(single <= 4)
    #expect(updated == .number(250))
    // ⌈250/100⌉ = 3 bulk requests, plus the login check.
    #expect(bulk == 4)
    #expect(try await harness.store.bookmarks(BookmarkListQuery(search: "#bulk", perPage: 50)).count == 250)
  }
}

extension ClosedRange where Bound == Int {
  func asyncMap<T>(_ transform: (Int) async throws -> T) async rethrows -> [T] {
    var results: [T] = []
    for value in self { results.append(try await transform(value)) }
    return results
  }
}
