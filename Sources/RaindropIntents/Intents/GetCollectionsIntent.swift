import FlowIntents
import RaindropModel

/// Lists every collection: the system ones (All, Unsorted, Trash) and the person's own.
struct GetCollectionsIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Collections"
  static let description = IntentDescription("List all Raindrop.io collections.")
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let openAppWhenRun = false

  @Dependency var service: IntentService

  func perform() async throws -> some ReturnsValue<[CollectionEntity]> {
    let collections = try await service.perform { backend throws(RaindropError) in try await backend.collections() }
    return .result(value: collections.map(CollectionEntity.init(from:)))
  }
}
