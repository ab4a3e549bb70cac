import FoundationEssentials

/// A saved link: Raindrop calls it a "raindrop". Field names follow the REST API's, in Swift spelling.
public struct Bookmark: Sendable, Hashable, Codable {
  /// Raindrop's `_id`: an integer, unique per account.
  public var id: Int
  public var link: String
  /// Defaults to the link when nothing else is known (reference §3.3).
  public var title: String
  /// The description parsed from the page, or written by the person.
  public var excerpt: String
  public var note: String
  public var type: BookmarkType
  public var tags: [String]
  /// "Favorite" in the apps; `important` on the wire, absent there when false.
  public var important: Bool
  /// The collection's id; system collections are negative (``SystemCollection``).
  public var collectionId: Int
  public var cover: String
  /// The link's host without `www.`.
  public var domain: String
  public var created: Date
  public var lastUpdate: Date
  /// The manual order (`-sort`); a new bookmark gets its own id.
  public var sort: Int
  /// True while the bookmark is in Trash.
  public var removed: Bool

  public init(
    id: Int,
    link: String,
    title: String,
    excerpt: String = "",
    note: String = "",
    type: BookmarkType = .link,
    tags: [String] = [],
    important: Bool = false,
    collectionId: Int = SystemCollection.unsorted.rawValue,
    cover: String = "",
    domain: String? = nil,
    created: Date,
    lastUpdate: Date? = nil,
    sort: Int? = nil,
    removed: Bool = false
  ) {
    self.id = id
    self.link = link
    self.title = title
    self.excerpt = excerpt
    self.note = note
    self.type = type
    self.tags = tags
    self.important = important
    self.collectionId = collectionId
    self.cover = cover
    self.domain = domain ?? LinkNormalizer.domain(of: link)
    self.created = created
    self.lastUpdate = lastUpdate ?? created
    self.sort = sort ?? id
    self.removed = removed
  }
}

/// What kind of page a bookmark points at (`type` on the wire, `type:` in search).
public enum BookmarkType: String, Sendable, Hashable, Codable, CaseIterable {
  case link, article, image, video, document, audio
  /// Known to the vendor's app only; kept so decoding one never fails.
  case book
}

/// The account behind a backend (`GET /user`).
public struct RaindropUser: Sendable, Hashable, Codable {
  public var id: Int
  public var name: String
  public var email: String
  public var pro: Bool

  public init(id: Int, name: String, email: String = "", pro: Bool = false) {
    self.id = id
    self.name = name
    self.email = email
    self.pro = pro
  }
}
