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

  /// The side effect of a step that may move bookmarks to `values["move-to"]`: destructive when that may
  /// be Trash, otherwise a change.
  static func sideEffect(movingTo values: [String: FlowValue]) -> SideEffect {
    guard let moveTo = values["move-to"] else { return .changes }
    return mayBe(.trash, moveTo) ? .destructive : .changes
  }

  /// Whether `value` — a collection, an id, or a title as a step writes it — may turn out to be the
  /// `system` collection when the run looks it up. A title is looked up without regard to case, an
  /// exact title first and otherwise any title that contains it (``CollectionQuery``), and several
  /// matches are offered to the person: so "trash" and "tras" may both be Trash. What decides whether
  /// a step deletes, so it errs towards yes.
  public static func mayBe(_ system: SystemCollection, _ value: FlowValue) -> Bool {
    switch value {
    case .entity(let entity):
      return entity.typeName == typeDisplayRepresentation.name && mayBe(system, entity.id)
    case .number(let number):
      return number == Double(system.rawValue)
    case .text(let text):
      if let id = Int(text.trimmingWhitespace()) { return id == system.rawValue }
      return text.isEmpty || system.title.lowercased().contains(text.lowercased())
    default:
      return false
    }
  }
}
