import FlowDiagnostics
import FlowIntents
import RaindropModel

/// A Raindrop.io collection, system (All, Unsorted, Trash) or the person's own (the seed's
/// `CollectionEntity`).
public struct CollectionEntity: AppEntity {
  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Collection"
  public static let defaultQuery = CollectionQuery()

  public var id: Int

  @Property(title: "Title") public var title: String
  @Property(title: "Count") public var count: Int

  private var systemImage: String

  public var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(
      title: "\(title)", subtitle: "\(Count.of(count, "item"))", image: .init(systemName: systemImage))
  }

  public init(from collection: BookmarkCollection) {
    self.id = collection.id
    self.systemImage = collection.system?.systemImage ?? "folder"
    self.title = collection.title
    self.count = collection.count
  }
}
