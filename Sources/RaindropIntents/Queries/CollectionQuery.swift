import FlowIntents
import RaindropModel

/// Finds collections by id and by title, and suggests them all (the seed's `CollectionQuery`).
public struct CollectionQuery: EntityStringQuery {
  @Dependency var service: IntentService

  public init() {}

  public func entities(for identifiers: [Int]) async throws -> [CollectionEntity] {
    let all = try await collections()
    return identifiers.compactMap { id in all.first { $0.id == id } }
  }

  /// Titles compared without regard to case. The seed matched any title containing the text; an exact
  /// title now wins over those, so `collection: Reading` picks "Reading" even when "Reading List" exists.
  public func entities(matching string: String) async throws -> [CollectionEntity] {
    let lowered = string.lowercased()
    let all = try await collections()
    let exact = all.filter { $0.title.lowercased() == lowered }
    return exact.isEmpty ? all.filter { $0.title.lowercased().contains(lowered) } : exact
  }

  public func suggestedEntities() async throws -> [CollectionEntity] {
    try await collections()
  }

  private func collections() async throws -> [CollectionEntity] {
    try await service.perform { backend throws(RaindropError) in
      try await backend.collections().map(CollectionEntity.init(from:))
    }
  }
}
