import FlowIntents
import RaindropModel

/// Moves a bookmark to Trash; one already in Trash is removed for good. Always asks first.
struct DeleteBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Delete Bookmark"
  static let description = IntentDescription("Move a bookmark to trash.")
  static let sideEffect = SideEffect.destructive
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let requiresConfirmation = true
  static let openAppWhenRun = false

  @Parameter(title: "Bookmark", primary: true)
  var bookmark: BookmarkEntity

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Delete \(\.$bookmark)")
  }

  func perform() async throws -> some IntentResult {
    let id = bookmark.id
    _ = try await service.perform { backend throws(RaindropError) in try await backend.deleteBookmark(id: id) }
    return .result()
  }
}
