import FlowIntents
import RaindropModel

/// Finds bookmarks by id, by text (Raindrop's search, most relevant first) and suggests the newest
/// (the seed's `BookmarkQuery`).
public struct BookmarkQuery: EntityStringQuery {
  @Dependency var service: IntentService

  public init() {}

  public func entities(for identifiers: [Int]) async throws -> [BookmarkEntity] {
    try await service.perform { backend throws(RaindropError) in
      var results: [BookmarkEntity] = []
      for id in identifiers {
        do throws(RaindropError) {
          results.append(BookmarkEntity(from: try await backend.bookmark(id: id)))
        } catch {
          // An id that no longer exists is simply not found (App Intents' contract).
          guard case .notFound = error else { throw error }
        }
      }
      return results
    }
  }

  public func entities(matching string: String) async throws -> [BookmarkEntity] {
    try await service.perform { backend throws(RaindropError) in
      let query = BookmarkListQuery(collectionId: SystemCollection.all.rawValue, search: string, sort: .relevance)
      return try await backend.bookmarks(query).items.map(BookmarkEntity.init(from:))
    }
  }

  public func suggestedEntities() async throws -> [BookmarkEntity] {
    try await service.perform { backend throws(RaindropError) in
      let query = BookmarkListQuery(sort: .newestFirst, perPage: 25)
      return try await backend.bookmarks(query).items.prefix(25).map(BookmarkEntity.init(from:))
    }
  }
}
