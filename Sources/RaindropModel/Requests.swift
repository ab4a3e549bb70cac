import Foundation

/// What to list: `GET /raindrops/{collectionId}?search=…&sort=…&page=…&perpage=…`.
package struct BookmarkListQuery: Sendable, Hashable {
  /// The collection to list; ``SystemCollection/all`` (0) means everything but Trash.
  package var collectionId: Int
  /// Raindrop's search syntax (reference §5); nil or blank lists everything.
  package var search: String?
  package var sort: BookmarkSort
  /// Zero-based.
  package var page: Int
  /// Items per page; the server caps it at ``BookmarkListQuery/maximumPerPage``.
  package var perPage: Int
  /// Also include bookmarks in nested collections.
  package var nested: Bool

  package static let defaultPerPage = 25
  package static let maximumPerPage = 50

  package init(
    collectionId: Int = SystemCollection.all.rawValue,
    search: String? = nil,
    sort: BookmarkSort = .default,
    page: Int = 0,
    perPage: Int = BookmarkListQuery.defaultPerPage,
    nested: Bool = false
  ) {
    self.collectionId = collectionId
    self.search = search
    self.sort = sort
    self.page = page
    self.perPage = perPage
    self.nested = nested
  }

  /// The page size the server actually uses: at least 1, at most 50.
  package var effectivePerPage: Int { min(max(perPage, 1), Self.maximumPerPage) }
}

/// One page of a listing.
package struct BookmarkPage: Sendable, Hashable {
  package var items: [Bookmark]
  /// Matches over all pages, not just this one.
  package var count: Int

  package init(items: [Bookmark], count: Int) {
    self.items = items
    self.count = count
  }
}

/// A bookmark to create (`POST /raindrop`).
package struct NewBookmark: Sendable, Hashable {
  package var link: String
  /// Nil: the server's parser, or the link itself, gives the title.
  package var title: String?
  package var excerpt: String?
  package var note: String?
  package var tags: [String]
  package var important: Bool
  /// Nil: Unsorted.
  package var collectionId: Int?
  package var type: BookmarkType?
  /// Nil: now. Imports and tests set it.
  package var created: Date?
  /// Ask the server to fetch the page and fill in title, excerpt and cover (`pleaseParse: {}`).
  package var parse: Bool

  package init(
    link: String,
    title: String? = nil,
    excerpt: String? = nil,
    note: String? = nil,
    tags: [String] = [],
    important: Bool = false,
    collectionId: Int? = nil,
    type: BookmarkType? = nil,
    created: Date? = nil,
    parse: Bool = true
  ) {
    self.link = link
    self.title = title
    self.excerpt = excerpt
    self.note = note
    self.tags = tags
    self.important = important
    self.collectionId = collectionId
    self.type = type
    self.created = created
    self.parse = parse
  }
}

/// The fields of one bookmark to change (`PUT /raindrop/{id}`); nil fields are left alone, so only the diff is
/// sent. `tags` replaces the whole list.
package struct BookmarkChanges: Sendable, Hashable {
  package var link: String?
  package var title: String?
  package var excerpt: String?
  package var note: String?
  package var tags: [String]?
  package var important: Bool?
  package var collectionId: Int?
  package var type: BookmarkType?

  package init(
    link: String? = nil,
    title: String? = nil,
    excerpt: String? = nil,
    note: String? = nil,
    tags: [String]? = nil,
    important: Bool? = nil,
    collectionId: Int? = nil,
    type: BookmarkType? = nil
  ) {
    self.link = link
    self.title = title
    self.excerpt = excerpt
    self.note = note
    self.tags = tags
    self.important = important
    self.collectionId = collectionId
    self.type = type
  }

  /// The diff from `original` to `modified`: the seed's `raindropUpdate(original:modified:)`.
  package init(from original: Bookmark, to modified: Bookmark) {
    self.init()
    if original.link != modified.link { link = modified.link }
    if original.title != modified.title { title = modified.title }
    if original.excerpt != modified.excerpt { excerpt = modified.excerpt }
    if original.note != modified.note { note = modified.note }
    if original.tags != modified.tags { tags = modified.tags }
    if original.important != modified.important { important = modified.important }
    if original.collectionId != modified.collectionId { collectionId = modified.collectionId }
    if original.type != modified.type { type = modified.type }
  }

  package var isEmpty: Bool { self == BookmarkChanges() }

  /// `bookmark` with these changes applied.
  package func applied(to bookmark: Bookmark) -> Bookmark {
    var result = bookmark
    if let link { result.link = link }
    if let title { result.title = title }
    if let excerpt { result.excerpt = excerpt }
    if let note { result.note = note }
    if let tags { result.tags = tags }
    if let important { result.important = important }
    if let collectionId { result.collectionId = collectionId }
    if let type { result.type = type }
    return result
  }
}

/// One change applied to many bookmarks at once (`PUT /raindrops/{collectionId}` with `ids`).
package struct BulkChange: Sendable, Hashable {
  /// Tags to add where missing (compared case-insensitively).
  package var addTags: [String]
  /// Tags to remove (compared case-insensitively).
  package var removeTags: [String]
  /// Remove every tag first (`tags: []` on the wire).
  package var clearTags: Bool
  package var important: Bool?
  /// Move into this collection.
  package var moveTo: Int?

  package init(
    addTags: [String] = [], removeTags: [String] = [], clearTags: Bool = false, important: Bool? = nil,
    moveTo: Int? = nil
  ) {
    self.addTags = addTags
    self.removeTags = removeTags
    self.clearTags = clearTags
    self.important = important
    self.moveTo = moveTo
  }

  package var isEmpty: Bool { self == BulkChange() }

  /// The most ids one request may carry; more, or none, is a 413 (reference §2).
  package static let maximumIDsPerRequest = 100
}

/// A collection to create (`POST /collection`).
package struct NewCollection: Sendable, Hashable {
  package var title: String
  /// Nil: a root collection.
  package var parentId: Int?

  package init(title: String, parentId: Int? = nil) {
    self.title = title
    self.parentId = parentId
  }
}

/// What deleting a bookmark did.
package enum DeleteOutcome: Sendable, Hashable {
  /// It was somewhere else and is now in Trash.
  case movedToTrash(Bookmark)
  /// It was already in Trash and is gone.
  case removedPermanently
}
