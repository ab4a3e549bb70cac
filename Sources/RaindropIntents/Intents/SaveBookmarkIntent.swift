import FlowIntents
import Foundation
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

  /// Beyond the seed: return the bookmark already saved with this link instead of saving it twice.
  @Parameter(title: "Skip If Exists", default: false)
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
    let saved = try await service.perform { backend throws(RaindropError) in
      if skipIfExists, let existing = try await backend.existingBookmark(link: url.absoluteString) {
        return existing
      }
      var raindrop = NewBookmark(
        link: url.absoluteString, collectionId: collection?.id ?? SystemCollection.unsorted.rawValue)
      if let title, !title.isEmpty { raindrop.title = title }
      if let tags, !tags.isEmpty { raindrop.tags = tags }
      return try await backend.createBookmark(raindrop)
    }
    return .result(value: BookmarkEntity(from: saved))
  }
}
