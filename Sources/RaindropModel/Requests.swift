import FoundationEssentials

/// What to list: `GET /raindrops/{collectionId}?search=…&sort=…&page=…&perpage=…`.
public struct BookmarkListQuery: Sendable, Hashable {
  /// The collection to list; ``SystemCollection/all`` (0) means everything but Trash.
  public var collectionId: Int
  /// Raindrop's search syntax (reference §5); nil or blank lists everything.
  public var search: String?
  public var sort: BookmarkSort
  /// Zero-based.
  public var page: Int
  /// Items per page; the server caps it at ``BookmarkListQuery/maximumPerPage``.
  public var perPage: Int
  /// Also include bookmarks in nested collections.
  public var nested: Bool

  public static let defaultPerPage = 25
  public static let maximumPerPage = 50

  public init(
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
  public var effectivePerPage: Int { min(max(perPage, 1), Self.maximumPerPage) }
}

/// One page of a listing.
public struct BookmarkPage: Sendable, Hashable {
  public var items: [Bookmark]
  /// Matches over all pages, not just this one.
  public var count: Int

  public init(items: [Bookmark], count: Int) {
    self.items = items
    self.count = count
  }
}

/// A bookmark to create (`POST /raindrop`).
public struct NewBookmark: Sendable, Hashable {
  public var link: String
  /// Nil: the server's parser, or the link itself, gives the title.
  public var title: String?
  public var excerpt: String?
  public var note: String?
  public var tags: [String]
  public var important: Bool
  /// Nil: Unsorted.
  public var collectionId: Int?
  public var type: BookmarkType?
  /// Nil: now. Imports and tests set it.
  public var created: Date?
  /// Ask the server to fetch the page and fill in title, excerpt and cover (`pleaseParse: {}`).
  public var parse: Bool

  public init(
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
public struct BookmarkChanges: Sendable, Hashable {
  public var link: String?
  public var title: String?
  public var excerpt: String?
  public var note: String?
  public var tags: [String]?
  public var important: Bool?
  public var collectionId: Int?
  public var type: BookmarkType?

  public init(
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
  public init(from original: Bookmark, to modified: Bookmark) {
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

  public var isEmpty: Bool { self == BookmarkChanges() }

  /// `bookmark` with these changes applied.
  public func applied(to bookmark: Bookmark) -> Bookmark {
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
public struct BulkChange: Sendable, Hashable {
  /// Tags to add where missing (compared case-insensitively).
  public var addTags: [String]
  /// Tags to remove (compared case-insensitively).
  public var removeTags: [String]
  /// Remove every tag first (`tags: []` on the wire).
  public var clearTags: Bool
  public var important: Bool?
  /// Move into this collection.
  public var moveTo: Int?

  public init(
    addTags: [String] = [], removeTags: [String] = [], clearTags: Bool = false, important: Bool? = nil,
    moveTo: Int? = nil
  ) {
    self.addTags = addTags
    self.removeTags = removeTags
    self.clearTags = clearTags
    self.important = important
    self.moveTo = moveTo
  }

  public var isEmpty: Bool { self == BulkChange() }

  /// The most ids one request may carry; more, or none, is a 413 (reference §2).
  public static let maximumIDsPerRequest = 100
}

/// A collection to create (`POST /collection`).
public struct NewCollection: Sendable, Hashable {
  public var title: String
  /// Nil: a root collection.
  public var parentId: Int?

  public init(title: String, parentId: Int? = nil) {
    self.title = title
    self.parentId = parentId
  }
}

/// What deleting a bookmark did.
public enum DeleteOutcome: Sendable, Hashable {
  /// It was somewhere else and is now in Trash.
  case movedToTrash(Bookmark)
  /// It was already in Trash and is gone.
  case removedPermanently
}
