import FlowIntents
import FoundationEssentials
import RaindropModel

/// A Raindrop.io bookmark (the seed's `BookmarkEntity`): what `${saved.title}` and `${saved.link.host}`
/// reach.
public struct BookmarkEntity: AppEntity {
  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Bookmark"
  public static let defaultQuery = BookmarkQuery()

  public var id: Int

  @Property(title: "Title") public var title: String
  @Property(title: "URL") public var link: URL
  @Property(title: "Note") public var note: String
  @Property(title: "Tags") public var tags: [String]
  @Property(title: "Collection ID") public var collectionId: Int
  /// The seed's `important`; named `favorite` here because workflows write `${saved.favorite}` (SPEC §2).
  @Property(title: "Favorite") public var favorite: Bool
  @Property(title: "Created") public var created: Date
  // Beyond the seed: what the API also gives (SPEC §2).
  @Property(title: "Excerpt") public var excerpt: String
  @Property(title: "Domain") public var domain: String
  @Property(title: "Type") public var type: String
  @Property(title: "Cover") public var cover: String
  @Property(title: "Last Update") public var lastUpdate: Date
  /// True only on what `save-bookmark` with `skip-if-exists` returns when the link was already saved, so a
  /// workflow can say "Already saved" rather than "Saved" (`if: ${saved.existed}`); false on every other
  /// bookmark. A property rather than a second output keeps `${saved}` a Bookmark that other actions take.
  @Property(title: "Already Existed") public var existed: Bool

  public var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "\(title)", subtitle: "\(link.host ?? link.absoluteString)")
  }

  public init(from raindrop: Bookmark) {
    self.id = raindrop.id
    self.title = raindrop.title
    self.link = URL(string: raindrop.link) ?? URL(fileURLWithPath: "/")
    self.note = raindrop.note
    self.tags = raindrop.tags
    self.collectionId = raindrop.collectionId
    self.favorite = raindrop.important
    self.created = raindrop.created
    self.excerpt = raindrop.excerpt
    self.domain = raindrop.domain
    self.type = raindrop.type.rawValue
    self.cover = raindrop.cover
    self.lastUpdate = raindrop.lastUpdate
    self.existed = false
  }
}
