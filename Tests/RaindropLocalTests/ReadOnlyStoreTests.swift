import Foundation
import RaindropLocal
import RaindropModel
import Testing

/// The store as a dry run opens it: it reads, and writes nothing to the disk at all.
@Suite("LocalBackend read-only")
struct ReadOnlyStoreTests {
  private func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-read-only-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Every file in `directory`, with its bytes.
  private func snapshot(_ directory: URL) -> [String: Data] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return Dictionary(
      uniqueKeysWithValues: names.map {
        ($0, FileManager.default.contents(atPath: directory.appendingPathComponent($0).path) ?? Data())
      })
  }

  @Test("no store yet: an empty one with the system collections, and no file or folder made")
  func missingStoreReadsAsEmpty() async throws {
    let parent = try directory()
    let store = parent.appendingPathComponent("data/flow")
    let backend = try LocalBackend(directory: store, access: .readOnly)
    #expect(try await backend.collections().map(\.title) == ["All bookmarks", "Unsorted", "Trash"])
    #expect(try await backend.bookmarks(BookmarkListQuery()).items.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("data").path))
  }

  @Test("an existing store is read, refuses writes, and is byte-for-byte the same afterwards")
  func existingStoreIsOnlyRead() async throws {
    let store = try directory()
    do {
      let writer = try LocalBackend(directory: store)
      _ = try await writer.createCollection(NewCollection(title: "Reading List"))
      _ = try await writer.createBookmark(NewBookmark(link: "https://swift.org"))
    }
    let before = snapshot(store)
    #expect(Array(before.keys) == ["raindrop.sqlite"])
    let reader = try LocalBackend(directory: store, access: .readOnly)
    #expect(try await reader.collections().map(\.title).contains("Reading List"))
    #expect(try await reader.bookmarks(BookmarkListQuery()).items.map(\.link) == ["https://swift.org"])
    await #expect(throws: RaindropError.self) {
      _ = try await reader.createBookmark(NewBookmark(link: "https://x.example"))
    }
    #expect(snapshot(store) == before)
  }

  @Test("while a writer has the store open, the reader sees its latest writes")
  func readsThroughAWritersJournal() async throws {
    let store = try directory()
    let writer = try LocalBackend(directory: store)
    _ = try await writer.createBookmark(NewBookmark(link: "https://first.example"))
    let reader = try LocalBackend(directory: store, access: .readOnly)
    _ = try await writer.createBookmark(NewBookmark(link: "https://second.example"))
    #expect(try await reader.bookmarks(BookmarkListQuery()).count == 2)
  }
}
