import FlowIntents
import RaindropModel

/// Creates a collection at the top level.
struct CreateCollectionIntent: AppIntent {
  static let title: LocalizedStringResource = "Create Collection"
  static let description = IntentDescription("Create a new collection in Raindrop.io.")
  static let sideEffect = SideEffect.changes
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let openAppWhenRun = false

  @Parameter(title: "Title", primary: true)
  var title: String

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Create collection \(\.$title)")
  }

  func perform() async throws -> some ReturnsValue<CollectionEntity> {
    let title = title
    let created = try await service.perform { backend throws(RaindropError) in
      try await backend.createCollection(NewCollection(title: title))
    }
    return .result(value: CollectionEntity(from: created))
  }
}
