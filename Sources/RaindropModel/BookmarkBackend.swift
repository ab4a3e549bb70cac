/// The calls the Raindrop intents make: the seed's `Rest`, one method per operation.
///
/// Two implementations keep the same semantics, checked by one contract suite: `LocalBackend` (SQLite,
/// offline) and `RaindropClient` (api.raindrop.io). Ids are integers; collection ids 0, -1 and -99 are
/// ``SystemCollection``s.
public protocol BookmarkBackend: Sendable {
  /// "local" or "raindrop": what a run reports it used.
  var name: String { get }

  /// The account; also the authentication check before a call (`GET /user`).
  func currentUser() async throws(RaindropError) -> RaindropUser

  /// One page of bookmarks in a collection, filtered by the search syntax and sorted.
  func bookmarks(_ query: BookmarkListQuery) async throws(RaindropError) -> BookmarkPage

  /// One bookmark; ``RaindropError/notFound(_:)`` when there is none with that id.
  func bookmark(id: Int) async throws(RaindropError) -> Bookmark

  /// Creates a bookmark. The REST client never sends the same create twice: after a failure it asks whether the
  /// link now exists before trying again.
  func createBookmark(_ new: NewBookmark) async throws(RaindropError) -> Bookmark

  /// Changes only the given fields; an empty change sends nothing and returns the bookmark as it is.
  func updateBookmark(id: Int, _ changes: BookmarkChanges) async throws(RaindropError) -> Bookmark

  /// Applies one change to many bookmarks, 100 ids per request, and returns how many were modified. Ids in
  /// Trash are modified only when `collectionId` is Trash. No ids: nothing happens (it never means "all").
  func updateBookmarks(ids: [Int], in collectionId: Int, _ change: BulkChange) async throws(RaindropError) -> Int

  /// Moves a bookmark to Trash, or removes it for good if it is already there.
  func deleteBookmark(id: Int) async throws(RaindropError) -> DeleteOutcome

  /// Ids of the bookmarks saved with this link (outside Trash), oldest first; `POST /import/url/exists`.
  func existingBookmarkIDs(link: String) async throws(RaindropError) -> [Int]

  /// The system collections (All, Unsorted, Trash, with counts) followed by the person's collections.
  func collections() async throws(RaindropError) -> [BookmarkCollection]

  /// Creates a collection; a blank title is ``RaindropError/invalidRequest(message:)``.
  func createCollection(_ new: NewCollection) async throws(RaindropError) -> BookmarkCollection
}

extension BookmarkBackend {
  /// Every match of `query`, page by page (50 a page, pages from 0, stopping on a short page), up to `limit`.
  /// `query.page` and `query.perPage` are ignored.
  public func allBookmarks(_ query: BookmarkListQuery, limit: Int? = nil) async throws(RaindropError) -> [Bookmark] {
    var request = query
    request.perPage = BookmarkListQuery.maximumPerPage
    request.page = 0
    var result: [Bookmark] = []
    while limit.map({ result.count < $0 }) ?? true {
      let page = try await bookmarks(request)
      result += page.items
      if page.items.count < request.perPage || result.count >= page.count { break }
      request.page += 1
    }
    if let limit, result.count > limit { result.removeLast(result.count - limit) }
    return result
  }

  /// The collection with this title, compared case-insensitively; user collections before system ones.
  public func collection(titled title: String) async throws(RaindropError) -> BookmarkCollection? {
    let all = try await collections()
    let wanted = title.lowercased()
    let matches = all.filter { $0.title.lowercased() == wanted }
    return matches.first(where: { $0.system == nil }) ?? matches.first
  }

  /// The first bookmark saved with this link, if any: what `skip-if-exists` returns.
  public func existingBookmark(link: String) async throws(RaindropError) -> Bookmark? {
    guard let id = try await existingBookmarkIDs(link: link).first else { return nil }
    return try await bookmark(id: id)
  }
}
