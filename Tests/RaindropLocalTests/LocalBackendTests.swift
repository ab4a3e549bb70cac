import Foundation
import RaindropLocal
import RaindropModel
import Testing

private func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-local-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite("LocalBackend storage")
struct LocalBackendStorageTests {
  @Test("the store is one SQLite file in the directory given, and survives reopening")
  func persistence() async throws {
    let directory = try temporaryDirectory().appendingPathComponent("nested/flow")
    defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().deletingLastPathComponent()) }
    let first = try LocalBackend(directory: directory)
    #expect(first.fileURL.lastPathComponent == "raindrop.sqlite")
    let made = try await first.createBookmark(NewBookmark(link: "https://keep.example", tags: ["k"]))
    let collection = try await first.createCollection(NewCollection(title: "Kept"))
    let second = try LocalBackend(directory: directory)
    #expect(try await second.bookmark(id: made.id) == made)
    #expect(try await second.collections().last?.id == collection.id)
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("raindrop.sqlite").path))
  }

  @Test("ids are never reused, even after a permanent delete")
  func idsNotReused() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LocalBackend(directory: directory)
    let a = try await store.createBookmark(NewBookmark(link: "https://a.example"))
    _ = try await store.deleteBookmark(id: a.id)
    _ = try await store.deleteBookmark(id: a.id)
    let b = try await store.createBookmark(NewBookmark(link: "https://b.example"))
    #expect(b.id > a.id)
  }

  @Test("two connections writing at once: nothing lost, nothing corrupt")
  func concurrentConnections() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Two stores on one file are two SQLite connections, as two `flow` processes would have; each runs on its
    // own actor, so their writes really overlap.
    let one = try LocalBackend(directory: directory)
    let two = try LocalBackend(directory: directory)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (name, store) in [("one", one), ("two", two)] {
        group.addTask {
          for index in 0..<150 {
            let made = try await store.createBookmark(NewBookmark(link: "https://\(name).example/\(index)"))
            if index % 3 == 0 {
              _ = try await store.updateBookmarks(ids: [made.id], in: 0, BulkChange(addTags: [name]))
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let all = try await one.allBookmarks(BookmarkListQuery())
    #expect(all.count == 300)
    #expect(Set(all.map(\.id)).count == 300)
    #expect(try await two.bookmarks(BookmarkListQuery(search: "#one")).count == 50)
    #expect(try await two.bookmarks(BookmarkListQuery(search: "#two")).count == 50)
  }

  @Test("two stores opening a new file at the same moment both work")
  func concurrentCreation() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let stores = try await withThrowingTaskGroup(of: LocalBackend.self) { group in
      for _ in 0..<4 { group.addTask { try LocalBackend(directory: directory) } }
      var all: [LocalBackend] = []
      for try await store in group { all.append(store) }
      return all
    }
    for (index, store) in stores.enumerated() {
      _ = try await store.createBookmark(NewBookmark(link: "https://s\(index).example"))
    }
    #expect(try await stores[0].bookmarks(BookmarkListQuery()).count == 4)
  }

  @Test("deleting a collection trashes its bookmarks and removes its sub-collections; deleting Trash empties it")
  func deleteCollection() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LocalBackend(directory: directory)
    let parent = try await store.createCollection(NewCollection(title: "P"))
    let child = try await store.createCollection(NewCollection(title: "C", parentId: parent.id))
    _ = try await store.createBookmark(NewBookmark(link: "https://p.example", collectionId: parent.id))
    _ = try await store.createBookmark(NewBookmark(link: "https://c.example", collectionId: child.id))
    try await store.deleteCollection(id: parent.id)
    #expect(try await store.collections().map(\.id) == [0, -1, -99])
    #expect(try await store.bookmarks(BookmarkListQuery(collectionId: -99)).count == 2)
    try await store.deleteCollection(id: -99)
    #expect(try await store.bookmarks(BookmarkListQuery(collectionId: -99)).count == 0)
  }

  @Test(
    "pages without a search (read by SQLite) order exactly as pages with one (sorted in Swift)",
    arguments: [
      BookmarkSort.newestFirst, .oldestFirst, .manual,
    ])
  func sqlAndSwiftOrdersAgree(sort: BookmarkSort) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LocalBackend(directory: directory)
    let base = Date(timeIntervalSince1970: 1_700_000_000)
    for index in 0..<40 {
      // Repeated timestamps, so that the id tie-break matters.
      _ = try await store.createBookmark(
        NewBookmark(link: "https://order.example/\(index)", created: base.addingTimeInterval(Double(index % 7))))
    }
    for page in 0..<3 {
      let plain = try await store.bookmarks(BookmarkListQuery(sort: sort, page: page, perPage: 15))
      let searched = try await store.bookmarks(
        BookmarkListQuery(search: "order.example", sort: sort, page: page, perPage: 15))
      #expect(plain == searched)
    }
  }

  @Test("a directory that cannot be created is a storage error")
  func unwritableDirectory() async throws {
    do {
      _ = try LocalBackend(directory: URL(fileURLWithPath: "/proc/flow-cannot-be-here"))
      Issue.record("expected a storage error")
    } catch {
      guard case .storage = error else {
        Issue.record("expected a storage error, got \(error)")
        return
      }
    }
  }
}
