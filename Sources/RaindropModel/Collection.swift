import FoundationEssentials

/// A collection of bookmarks: one of the three system collections or one the person made.
///
/// Named `BookmarkCollection` so that it never shadows Swift's `Collection` protocol in modules that import
/// this one.
public struct BookmarkCollection: Sendable, Hashable, Codable {
  public var id: Int
  public var title: String
  /// Bookmarks directly in the collection (Trash excluded, except for Trash itself).
  public var count: Int
  /// The parent collection's id; nil for root collections and system collections.
  public var parentId: Int?
  public var created: Date?
  public var lastUpdate: Date?

  public init(
    id: Int, title: String, count: Int = 0, parentId: Int? = nil, created: Date? = nil, lastUpdate: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.count = count
    self.parentId = parentId
    self.created = created
    self.lastUpdate = lastUpdate
  }

  /// The system collection this is, if any.
  public var system: SystemCollection? { SystemCollection(rawValue: id) }
}

/// Raindrop's built-in collections, which have fixed negative (or zero) ids and never appear in
/// `GET /collections` (reference §4).
public enum SystemCollection: Int, Sendable, Hashable, CaseIterable {
  /// Every bookmark except those in Trash. A place to read from, never to save into.
  case all = 0
  /// Where a new bookmark goes when no collection is given.
  case unsorted = -1
  /// Deleting moves here; deleting here removes for good.
  case trash = -99

  /// The names the Raindrop apps show.
  public var title: String {
    switch self {
    case .all: "All bookmarks"
    case .unsorted: "Unsorted"
    case .trash: "Trash"
    }
  }

  /// A symbol name for the entity's display (the seed's `systemImage`).
  public var systemImage: String {
    switch self {
    case .all: "tray.full"
    case .unsorted: "tray"
    case .trash: "trash"
    }
  }
}
