import FlowIntents
import FoundationEssentials
import RaindropModel

/// Saves a web page to a Raindrop.io collection; Raindrop parses its title, excerpt and cover.
struct SaveBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Save Bookmark"
  static let description = IntentDescription("Save a URL to Raindrop.io.")
  static let sideEffect = SideEffect.changes
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let openAppWhenRun = false

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Parameter(title: "Title")
  var title: String?

  /// Unsorted when not given, as in the seed (`Raindrop.new(collection: nil)`).
  @Parameter(title: "Collection")
  var collection: CollectionEntity?

  @Parameter(title: "Tags")
  var tags: [String]?

  /// Beyond the seed: return the bookmark already saved with this link instead of saving it twice; its
  /// `existed` says which happened.
  @Parameter(
    title: "Skip If Exists",
    description: "Return the bookmark already saved with this link, if there is one; its 'existed' is then true.",
    default: false)
  var skipIfExists: Bool

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Save \(\.$url) to Raindrop.io") {
      \.$title
      \.$collection
      \.$tags
      \.$skipIfExists
    }
  }

  func perform() async throws -> some ReturnsValue<BookmarkEntity> {
    let (url, title, collection, tags, skipIfExists) = (url, title, collection, tags, skipIfExists)
    let (saved, existed) = try await service.perform { backend throws(RaindropError) in
      if skipIfExists, let existing = try await backend.existingBookmark(link: url.absoluteString) {
        return (existing, true)
      }
      var raindrop = NewBookmark(
        link: url.absoluteString, collectionId: collection?.id ?? SystemCollection.unsorted.rawValue)
      if let title, !title.isEmpty { raindrop.title = title }
      if let tags, !tags.isEmpty { raindrop.tags = tags }
      return (try await backend.createBookmark(raindrop), false)
    }
    var entity = BookmarkEntity(from: saved)
    entity.existed = existed
    return .result(value: entity)
  }
}
