import FlowSQLite
import Foundation
import RaindropModel
import Testing

@testable import RaindropLocal

/// A store an older flow wrote (schema version 2, before the folded search columns) opens and searches:
/// read-write, it is migrated in place; read-only (a dry run), it is searched as it is and left untouched.
@Suite("LocalBackend store migration")
struct StoreMigrationTests {
  /// A version 2 store, as flow wrote it before issue 30, holding `titles` as Unsorted bookmarks.
  static func versionTwoStore(_ titles: [String]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-v2-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let database = try SQLiteConnection(path: directory.appendingPathComponent(LocalBackend.fileName).path)
    try database.execute(
      """
      CREATE TABLE collections (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, parent INTEGER,
        created INTEGER NOT NULL, last_update INTEGER NOT NULL);
      CREATE TABLE bookmarks (id INTEGER PRIMARY KEY AUTOINCREMENT, link TEXT NOT NULL, link_key TEXT NOT NULL,
        title TEXT NOT NULL, excerpt TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '',
        type TEXT NOT NULL DEFAULT 'link', tags TEXT NOT NULL DEFAULT '[]', important INTEGER NOT NULL DEFAULT 0,
        collection INTEGER NOT NULL, cover TEXT NOT NULL DEFAULT '', domain TEXT NOT NULL, sort INTEGER NOT NULL,
        created INTEGER NOT NULL, last_update INTEGER NOT NULL);
      CREATE INDEX bookmarks_by_collection ON bookmarks(collection);
      CREATE INDEX bookmarks_by_link ON bookmarks(link_key);
      CREATE INDEX bookmarks_by_created ON bookmarks(created);
      CREATE INDEX bookmarks_by_sort ON bookmarks(sort);
      PRAGMA user_version = 2;
      """)
    for (index, title) in titles.enumerated() {
      try database.query(
        """
        INSERT INTO bookmarks (link, link_key, title, tags, collection, domain, sort, created, last_update)
        VALUES (?, ?, ?, ?, -1, 'old.example', ?, ?, ?)
        """,
        [
          .text("https://old.example/\(index)"), .text("old.example/\(index)"), .text(title),
          .text(#"["Étiquette"]"#), .integer(Int64(index + 1)), .integer(Int64(index) * 1000),
          .integer(Int64(index) * 1000),
        ])
    }
    return directory
  }

  static func version(_ directory: URL) throws -> Int? {
    let database = try SQLiteConnection(readingOnly: directory.appendingPathComponent(LocalBackend.fileName).path)
    return try database.query("PRAGMA user_version").first?.first?.int
  }

  /// More bookmarks than one batch of the migration, so that batches follow each other.
  static let titles = (0..<1_203).map { $0 % 100 == 0 ? "Le Café \($0)" : "Page \($0)" }

  @Test("an old store opens, is migrated, and searches ignoring case and accents")
  func oldStoreIsMigrated() async throws {
    let directory = try Self.versionTwoStore(Self.titles)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LocalBackend(directory: directory)
    #expect(try Self.version(directory) == LocalBackend.schemaVersion)
    let found = try await store.allBookmarks(BookmarkListQuery(search: "cafe", sort: .oldestFirst))
    #expect(found.map(\.title) == Self.titles.filter { $0.hasPrefix("Le Café") })
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#etiquette")).count == Self.titles.count)
    // Saved after the migration, found alike; and a second open migrates nothing.
    _ = try await store.createBookmark(NewBookmark(link: "https://new.example", title: "CAFÉ", parse: false))
    let again = try LocalBackend(directory: directory)
    #expect(try await again.bookmarks(BookmarkListQuery(search: "café")).count == found.count + 1)
  }

  /// A version 3 store holds text folded by Foundation's `folding(options:)`; version 4 folds it again as
  /// SearchFolding now does, so a scalar the two fold apart is found after the upgrade.
  @Test("a version 3 store's folded columns are folded again")
  func versionThreeIsFoldedAgain() async throws {
    let directory = try Self.versionTwoStore(["ＴＯＫＹＯ Guide", "Plain"])
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try LocalBackend(directory: directory)
    // As an older flow left it: version 3, and a folded title that SearchFolding would not write.
    let database = try SQLiteConnection(path: directory.appendingPathComponent(LocalBackend.fileName).path)
    try database.execute("UPDATE bookmarks SET title_fold = 'stale' WHERE title = 'Plain'; PRAGMA user_version = 3")
    let store = try LocalBackend(directory: directory)
    #expect(try Self.version(directory) == 4)
    #expect(try await store.bookmarks(BookmarkListQuery(search: "plain")).items.map(\.title) == ["Plain"])
    #expect(try await store.bookmarks(BookmarkListQuery(search: "stale")).items.isEmpty)
    let folded = try database.query("SELECT title_fold FROM bookmarks ORDER BY id").map { $0[0].string ?? "" }
    #expect(folded == [SearchFolding.fold("ＴＯＫＹＯ Guide"), "plain"])
  }

  @Test("an old store opened read-only is searched, refuses writes, and stays as it was")
  func oldStoreReadOnly() async throws {
    let directory = try Self.versionTwoStore(["École", "Other"])
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(LocalBackend.fileName)
    let before = try Data(contentsOf: file)
    let reader = try LocalBackend(directory: directory, access: .readOnly)
    #expect(try await reader.bookmarks(BookmarkListQuery(search: "ECOLE")).items.map(\.title) == ["École"])
    await #expect(throws: RaindropError.self) {
      _ = try await reader.createBookmark(NewBookmark(link: "https://x.example"))
    }
    #expect(try Data(contentsOf: file) == before)
    #expect(try Self.version(directory) == 2)
  }
}
