import Foundation
import RaindropModel
import Testing

/// The same bodies against the local store and against the REST client talking to the stand-in: both backends
/// must keep Raindrop's semantics.
@Suite("Backend contract")
struct BackendContractTests {
  @Test("a new bookmark gets Raindrop's defaults", arguments: BackendKind.allCases)
  func newBookmarkDefaults(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let made = try await fixture.backend.createBookmark(NewBookmark(link: "https://www.Example.com/page"))
      #expect(made.collectionId == SystemCollection.unsorted.rawValue)
      #expect(made.title == "https://www.Example.com/page")
      #expect(made.domain == "example.com")
      #expect(made.type == .link)
      #expect(made.important == false)
      #expect(made.sort == made.id)
      #expect(made.removed == false)
      #expect(made.created == fixture.clock.now)
      let fetched = try await fixture.backend.bookmark(id: made.id)
      #expect(fetched == made)
    }
  }

  @Test("title, tags, note, favourite and collection are kept", arguments: BackendKind.allCases)
  func createWithFields(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let reading = try await fixture.backend.createCollection(NewCollection(title: "Reading"))
      let made = try await fixture.backend.createBookmark(
        NewBookmark(
          link: "https://swift.org", title: "Swift", note: "n", tags: ["a", "B", "a"], important: true,
          collectionId: reading.id)
      )
      #expect(made.title == "Swift")
      #expect(made.tags == ["a", "B"])
      #expect(made.note == "n")
      #expect(made.important)
      #expect(made.collectionId == reading.id)
    }
  }

  @Test("a missing bookmark or collection is 'not found'", arguments: BackendKind.allCases)
  func notFound(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      await expectError(.notFound(.bookmark(id: 424_242))) { () async throws(RaindropError) in
        try await fixture.backend.bookmark(id: 424_242)
      }
      await expectError(.notFound(.collection(id: 777))) { () async throws(RaindropError) in
        try await fixture.backend.createBookmark(NewBookmark(link: "https://a.b", collectionId: 777))
      }
      await expectError(.notFound(.collection(id: 777))) { () async throws(RaindropError) in
        try await fixture.backend.bookmarks(BookmarkListQuery(collectionId: 777))
      }
      await expectError(.notFound(.bookmark(id: 424_242))) { () async throws(RaindropError) in
        try await fixture.backend.deleteBookmark(id: 424_242)
      }
    }
  }

  @Test("delete moves to Trash; delete in Trash removes", arguments: BackendKind.allCases)
  func deleteSemantics(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      let made = try await backend.createBookmark(NewBookmark(link: "https://delete.me"))
      guard case .movedToTrash(let trashed) = try await backend.deleteBookmark(id: made.id) else {
        Issue.record("expected a move to Trash")
        return
      }
      #expect(trashed.collectionId == SystemCollection.trash.rawValue)
      #expect(trashed.removed)
      #expect(try await backend.bookmarks(BookmarkListQuery()).count == 0)
      #expect(
        try await backend.bookmarks(BookmarkListQuery(collectionId: SystemCollection.trash.rawValue)).items.map(\.id)
          == [made.id])
      #expect(try await backend.deleteBookmark(id: made.id) == .removedPermanently)
      await expectError(.notFound(.bookmark(id: made.id))) { () async throws(RaindropError) in
        try await backend.bookmark(id: made.id)
      }
    }
  }

  @Test("collections: system ones first, with counts; user ones after", arguments: BackendKind.allCases)
  func collections(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      let reading = try await backend.createCollection(NewCollection(title: "Reading"))
      #expect(reading.title == "Reading")
      #expect(reading.count == 0)
      let child = try await backend.createCollection(NewCollection(title: "Papers", parentId: reading.id))
      #expect(child.parentId == reading.id)
      _ = try await backend.createBookmark(NewBookmark(link: "https://a.example", collectionId: reading.id))
      _ = try await backend.createBookmark(NewBookmark(link: "https://b.example"))
      let trashed = try await backend.createBookmark(NewBookmark(link: "https://c.example"))
      _ = try await backend.deleteBookmark(id: trashed.id)

      let all = try await backend.collections()
      #expect(all.map(\.id) == [0, -1, -99, reading.id, child.id])
      #expect(all.map(\.title) == ["All bookmarks", "Unsorted", "Trash", "Reading", "Papers"])
      #expect(all.map(\.count) == [2, 1, 1, 1, 0])
      #expect(try await backend.collection(titled: "reading")?.id == reading.id)
      #expect(try await backend.collection(titled: "TRASH")?.id == -99)
      #expect(try await backend.collection(titled: "nope") == nil)
      await expectError(.invalidRequest(message: "title: Path `title` is required.")) {
        () async throws(RaindropError) in
        try await backend.createCollection(NewCollection(title: "  "))
      }
    }
  }

  @Test("the search syntax of reference §5", arguments: BackendKind.allCases)
  func search(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let library = try await seedLibrary(fixture.backend)
      let cases: [(String, Set<String>)] = [
        ("swift", ["Swift Documentation", "Argument Parser", "Concurrency talk"]),
        ("SWIFT parser", ["Argument Parser"]),
        ("\"programming language\"", ["Swift Documentation"]),
        ("swift -video", ["Swift Documentation", "Argument Parser"]),
        ("#swift", ["Swift Documentation", "Argument Parser", "Concurrency talk"]),
        ("#\"cli tools\"", ["Argument Parser"]),
        ("-#swift", ["Raindrop help", "Bread recipe", "https://news.ycombinator.com"]),
        ("#cooking #docs match:OR", ["Bread recipe", "Swift Documentation"]),
        ("#cooking #docs", []),
        ("type:video", ["Concurrency talk"]),
        ("type:article", ["Swift Documentation", "Bread recipe"]),
        ("important:true", ["Swift Documentation", "Bread recipe"]),
        ("❤️", ["Swift Documentation", "Bread recipe"]),
        ("notag:true", ["Raindrop help", "https://news.ycombinator.com"]),
        ("created:2024-03", ["Argument Parser", "Raindrop help", "https://news.ycombinator.com"]),
        ("created:2024-03-02", ["Argument Parser"]),
        ("created:<2024", ["Concurrency talk", "Bread recipe"]),
        ("created:>2023", ["Swift Documentation", "Argument Parser", "Raindrop help", "https://news.ycombinator.com"]),
        ("title:help", ["Raindrop help"]),
        ("title:\"bread recipe\"", ["Bread recipe"]),
        ("link:youtube", ["Concurrency talk"]),
        ("link:github.com", ["Argument Parser"]),
        ("later", ["Concurrency talk"]),
        ("ycombinator", ["https://news.ycombinator.com"]),
        ("nothing-like-this", []),
        ("", Set(library.keys)),
      ]
      for (text, expected) in cases {
        let page = try await fixture.backend.bookmarks(BookmarkListQuery(search: text, perPage: 50))
        #expect(Set(page.items.map(\.title)) == expected, "search \(text)")
        #expect(page.count == expected.count, "count for \(text)")
      }
      // Within one collection, and relevance first.
      let reading = try #require(try await fixture.backend.collection(titled: "Reading"))
      let inReading = try await fixture.backend.bookmarks(BookmarkListQuery(collectionId: reading.id, search: "search"))
      #expect(inReading.items.map(\.title) == ["Raindrop help"])
      let ranked = try await fixture.backend.bookmarks(BookmarkListQuery(search: "swift", sort: .relevance))
      #expect(ranked.items.first?.title == "Swift Documentation")
      // Trash is excluded from 0 and searchable on its own.
      _ = try await fixture.backend.deleteBookmark(id: try #require(library["Bread recipe"]).id)
      #expect(try await fixture.backend.bookmarks(BookmarkListQuery(search: "bread")).count == 0)
      #expect(try await fixture.backend.bookmarks(BookmarkListQuery(collectionId: -99, search: "bread")).count == 1)
    }
  }

  @Test("all eight sort values", arguments: BackendKind.allCases)
  func sorting(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let library = try await seedLibrary(fixture.backend)
      func titles(_ sort: BookmarkSort) async throws -> [String] {
        try await fixture.backend.bookmarks(BookmarkListQuery(sort: sort)).items.map(\.title)
      }
      let newest = [
        "Raindrop help", "https://news.ycombinator.com", "Argument Parser", "Swift Documentation", "Concurrency talk",
        "Bread recipe",
      ]
      #expect(try await titles(.newestFirst) == newest)
      #expect(try await titles(.oldestFirst) == newest.reversed())
      #expect(try await titles(.relevance) == newest)  // no search: newest first
      let byID = library.values.sorted { $0.id > $1.id }.map(\.title)
      #expect(try await titles(.manual) == byID)
      let alphabetical = [
        "Argument Parser", "Bread recipe", "Concurrency talk", "https://news.ycombinator.com", "Raindrop help",
        "Swift Documentation",
      ]
      #expect(try await titles(.titleAscending) == alphabetical)
      #expect(try await titles(.titleDescending) == alphabetical.reversed())
      // Domains: example.com, github.com, news.ycombinator.com, raindrop.io, swift.org, youtube.com
      let byDomain = [
        "Bread recipe", "Argument Parser", "https://news.ycombinator.com", "Raindrop help", "Swift Documentation",
        "Concurrency talk",
      ]
      #expect(try await titles(.domainAscending) == byDomain)
      #expect(try await titles(.domainDescending) == byDomain.reversed())
    }
  }

  @Test("pages from 0, 25 by default, at most 50, count is the total", arguments: BackendKind.allCases)
  func pagination(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      for index in 0..<60 {
        _ = try await backend.createBookmark(
          NewBookmark(link: "https://example.com/\(index)", created: .utc(2024, 1, 1).addingTimeInterval(Double(index)))
        )
      }
      let first = try await backend.bookmarks(BookmarkListQuery())
      #expect(first.items.count == 25)
      #expect(first.count == 60)
      #expect(first.items.first?.link == "https://example.com/59")
      let third = try await backend.bookmarks(BookmarkListQuery(page: 2))
      #expect(third.items.map(\.link) == (0..<10).reversed().map { "https://example.com/\($0)" })
      let capped = try await backend.bookmarks(BookmarkListQuery(perPage: 100))
      #expect(capped.items.count == 50)
      let beyond = try await backend.bookmarks(BookmarkListQuery(page: 5))
      #expect(beyond.items.isEmpty)
      #expect(beyond.count == 60)
      let all = try await backend.allBookmarks(BookmarkListQuery(sort: .oldestFirst))
      #expect(all.map(\.link) == (0..<60).map { "https://example.com/\($0)" })
      #expect(try await backend.allBookmarks(BookmarkListQuery(), limit: 30).count == 30)
    }
  }

  @Test("update sends only the diff; tags replace", arguments: BackendKind.allCases)
  func update(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      let original = try await backend.createBookmark(
        NewBookmark(link: "https://a.example", title: "A", tags: ["one", "Two"]))
      var modified = original
      modified.tags = TagEditor.edit(original.tags, adding: ["TWO", "three"], removing: ["ONE"])
      modified.important = true
      let changes = BookmarkChanges(from: original, to: modified)
      #expect(changes == BookmarkChanges(tags: ["Two", "three"], important: true))
      fixture.clock.advance(by: 60)
      let updated = try await backend.updateBookmark(id: original.id, changes)
      #expect(updated.tags == ["Two", "three"])
      #expect(updated.important)
      #expect(updated.title == "A")
      #expect(updated.lastUpdate > original.lastUpdate)
      #expect(updated.created == original.created)
      let unchanged = try await backend.updateBookmark(id: original.id, BookmarkChanges())
      #expect(unchanged == updated)
      let reading = try await backend.createCollection(NewCollection(title: "Reading"))
      let moved = try await backend.updateBookmark(id: original.id, BookmarkChanges(collectionId: reading.id))
      #expect(moved.collectionId == reading.id)
      let restored = try await backend.updateBookmark(id: original.id, BookmarkChanges(title: "", important: false))
      #expect(restored.title == "https://a.example")
      #expect(restored.important == false)
    }
  }

  @Test("bulk update: tags, favourite, move; Trash untouched from 0", arguments: BackendKind.allCases)
  func bulkUpdate(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      var ids: [Int] = []
      for index in 0..<5 {
        ids.append(
          try await backend.createBookmark(
            NewBookmark(link: "https://bulk.example/\(index)", tags: index == 0 ? ["Old"] : [])
          ).id)
      }
      _ = try await backend.deleteBookmark(id: ids[4])
      let modified = try await backend.updateBookmarks(
        ids: ids, in: 0, BulkChange(addTags: ["new", "OLD"], important: true))
      #expect(modified == 4)
      #expect(try await backend.bookmark(id: ids[0]).tags == ["Old", "new"])
      #expect(try await backend.bookmark(id: ids[1]).tags == ["new", "OLD"])
      #expect(try await backend.bookmark(id: ids[1]).important)
      #expect(try await backend.bookmark(id: ids[4]).tags == [])
      #expect(try await backend.updateBookmarks(ids: ids, in: 0, BulkChange(removeTags: ["old"])) == 4)
      #expect(try await backend.bookmark(id: ids[0]).tags == ["new"])
      let reading = try await backend.createCollection(NewCollection(title: "Reading"))
      #expect(try await backend.updateBookmarks(ids: Array(ids[0..<2]), in: 0, BulkChange(moveTo: reading.id)) == 2)
      #expect(try await backend.bookmarks(BookmarkListQuery(collectionId: reading.id)).count == 2)
      #expect(try await backend.updateBookmarks(ids: ids, in: 0, BulkChange(clearTags: true)) == 4)
      #expect(try await backend.bookmark(id: ids[0]).tags == [])
      #expect(try await backend.updateBookmarks(ids: [], in: 0, BulkChange(addTags: ["x"])) == 0)
    }
  }

  @Test("bulk update of more than 100 ids", arguments: BackendKind.allCases)
  func bulkUpdateMany(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      var ids: [Int] = []
      for index in 0..<230 {
        ids.append(
          try await fixture.backend.createBookmark(NewBookmark(link: "https://many.example/\(index)", parse: false)).id)
      }
      await fixture.server?.resetCounts()
      #expect(try await fixture.backend.updateBookmarks(ids: ids, in: 0, BulkChange(addTags: ["batch"])) == 230)
      #expect(try await fixture.backend.bookmarks(BookmarkListQuery(search: "#batch")).count == 230)
      if let server = fixture.server {
        #expect(await server.requestCounts["PUT /raindrops/{collectionId}"] == 3)
      }
    }
  }

  @Test(
    "exists: the same link, ignoring scheme, www, trailing slash and fragment; not in Trash",
    arguments: BackendKind.allCases)
  func exists(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      let made = try await backend.createBookmark(NewBookmark(link: "https://www.swift.org/blog/"))
      let twice = try await backend.createBookmark(NewBookmark(link: "https://swift.org/blog"))
      #expect(try await backend.existingBookmarkIDs(link: "http://swift.org/blog#top") == [made.id, twice.id])
      #expect(try await backend.existingBookmarkIDs(link: "https://swift.org/other") == [])
      #expect(try await backend.existingBookmark(link: "https://swift.org/blog")?.id == made.id)
      _ = try await backend.deleteBookmark(id: made.id)
      #expect(try await backend.existingBookmarkIDs(link: "https://swift.org/blog") == [twice.id])
    }
  }

  @Test("the current user answers", arguments: BackendKind.allCases)
  func currentUser(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let user = try await fixture.backend.currentUser()
      #expect(user.id == 1)
      #expect(user.name == "local")
    }
  }

  @Test("nested listing includes sub-collections", arguments: BackendKind.allCases)
  func nested(kind: BackendKind) async throws {
    try await withBackend(kind) { fixture in
      let backend = fixture.backend
      let parent = try await backend.createCollection(NewCollection(title: "Parent"))
      let child = try await backend.createCollection(NewCollection(title: "Child", parentId: parent.id))
      _ = try await backend.createBookmark(NewBookmark(link: "https://p.example", collectionId: parent.id))
      _ = try await backend.createBookmark(NewBookmark(link: "https://c.example", collectionId: child.id))
      #expect(try await backend.bookmarks(BookmarkListQuery(collectionId: parent.id)).count == 1)
      #expect(try await backend.bookmarks(BookmarkListQuery(collectionId: parent.id, nested: true)).count == 2)
    }
  }
}
