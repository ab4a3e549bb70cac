import FlowIntents
import RaindropModel

/// Adds or removes tags (without regard to case) and stars or unstars a bookmark; only what changed is
/// sent.
struct UpdateBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Update Bookmark"
  static let description = IntentDescription("Update tags or favorite status of a bookmark.")
  static let sideEffect = SideEffect.changes
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let openAppWhenRun = false

  @Parameter(title: "Bookmark", primary: true)
  var bookmark: BookmarkEntity

  @Parameter(title: "Add Tags")
  var addTags: [String]?

  @Parameter(title: "Remove Tags")
  var removeTags: [String]?

  /// The seed's `important`; written `favorite:` in workflows (SPEC §2).
  @Parameter(title: "Favorite", key: "favorite")
  var important: Bool?

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Update \(\.$bookmark)") {
      \.$addTags
      \.$removeTags
      \.$important
    }
  }

  func perform() async throws -> some ReturnsValue<BookmarkEntity> {
    let (id, addTags, removeTags, important) = (bookmark.id, addTags, removeTags, important)
    let updated = try await service.perform { backend throws(RaindropError) in
      let original = try await backend.bookmark(id: id)
      var modified = original
      // The seed's tag edits, shared with the bulk endpoint: add what is missing and remove, both
      // without regard to case.
      modified.tags = TagEditor.edit(modified.tags, adding: addTags ?? [], removing: removeTags ?? [])
      if let important {
        modified.important = important
      }
      // The seed's raindropUpdate(original:modified:): only the difference goes out, and nothing at all
      // when nothing changed.
      let changes = BookmarkChanges(from: original, to: modified)
      return changes.isEmpty ? original : try await backend.updateBookmark(id: id, changes)
    }
    return .result(value: BookmarkEntity(from: updated))
  }
}
