import FoundationEssentials
import RaindropModel

/// The run's bookmark backend, opened on first use and announced then: a workflow that never touches
/// Raindrop creates no store and opens no connection, and one that does says which backend it used
/// (SPEC §7) exactly once.
public actor LazyBackend: BookmarkBackend {
  private let open: @Sendable () throws(RaindropError) -> any BookmarkBackend
  private let announce: @Sendable () -> Void
  private var opened: (any BookmarkBackend)?

  public nonisolated let name: String

  public init(
    name: String, announce: @escaping @Sendable () -> Void,
    open: @escaping @Sendable () throws(RaindropError) -> any BookmarkBackend
  ) {
    self.name = name
    self.announce = announce
    self.open = open
  }

  private var announced = false

  private func backend() throws(RaindropError) -> any BookmarkBackend {
    if let opened { return opened }
    // Said before opening, so that a backend that fails to open is still named.
    if !announced {
      announced = true
      announce()
    }
    let backend = try open()
    opened = backend
    return backend
  }

  public func currentUser() async throws(RaindropError) -> RaindropUser { try await backend().currentUser() }
  public func bookmarks(_ query: BookmarkListQuery) async throws(RaindropError) -> BookmarkPage {
    try await backend().bookmarks(query)
  }
  public func bookmark(id: Int) async throws(RaindropError) -> Bookmark { try await backend().bookmark(id: id) }
  public func createBookmark(_ new: NewBookmark) async throws(RaindropError) -> Bookmark {
    try await backend().createBookmark(new)
  }
  public func updateBookmark(id: Int, _ changes: BookmarkChanges) async throws(RaindropError) -> Bookmark {
    try await backend().updateBookmark(id: id, changes)
  }
  public func updateBookmarks(ids: [Int], in collectionId: Int, _ change: BulkChange) async throws(RaindropError)
    -> Int
  {
    try await backend().updateBookmarks(ids: ids, in: collectionId, change)
  }
  public func deleteBookmark(id: Int) async throws(RaindropError) -> DeleteOutcome {
    try await backend().deleteBookmark(id: id)
  }
  public func existingBookmarkIDs(link: String) async throws(RaindropError) -> [Int] {
    try await backend().existingBookmarkIDs(link: link)
  }
  public func collections() async throws(RaindropError) -> [BookmarkCollection] { try await backend().collections() }
  public func createCollection(_ new: NewCollection) async throws(RaindropError) -> BookmarkCollection {
    try await backend().createCollection(new)
  }
}
