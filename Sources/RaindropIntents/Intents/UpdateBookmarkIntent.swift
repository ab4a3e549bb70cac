import FlowIntents
import RaindropModel

/// Adds or removes tags (without regard to case), stars or unstars, retitles, writes the note of, or moves a
/// bookmark; only what changed is sent.
struct UpdateBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Update Bookmark"
  static let description = IntentDescription(
    "Update the tags, favorite status, title or note of a bookmark, or move it to another collection.")
  // Moving to Trash is deleting (delete-bookmark does no more), so `move-to` decides, as it does for
  // update-bookmarks: see sideEffect(for:).
  static let sideEffect = SideEffect.destructive
  static let sideEffectParameters: Set<String> = ["move-to"]
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

  /// Beyond the seed. An empty title is Raindrop's "no title": the link stands in for it.
  @Parameter(title: "Title", description: "The new title; empty gives the bookmark its link as title.")
  var title: String?

  /// Beyond the seed; replaces the whole note (an empty one clears it).
  @Parameter(title: "Note", description: "The new note, replacing the old one; empty clears it.")
  var note: String?

  /// Beyond the seed; named as update-bookmarks names it.
  @Parameter(
    title: "Move To", description: "The collection to move the bookmark to; Trash deletes it, and asks first.")
  var moveTo: CollectionEntity?

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Update \(\.$bookmark)") {
      \.$addTags
      \.$removeTags
      \.$important
      \.$title
      \.$note
      \.$moveTo
    }
  }

  /// Destructive when the bookmark may go to Trash; otherwise a change.
  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    CollectionEntity.sideEffect(movingTo: values)
  }

  /// Moving to Trash is what a person is asked about, not the update.
  static func confirmationQuestion(for values: [String: FlowValue]) -> String? {
    guard sideEffect(for: values) == .destructive, let bookmarks = values["bookmark"] else { return nil }
    return "Move \(ConfirmationWords.things(bookmarks)) to the Trash?"
  }

  func perform() async throws -> some ReturnsValue<BookmarkEntity> {
    let (id, addTags, removeTags, important) = (bookmark.id, addTags, removeTags, important)
    let (title, note, moveTo) = (title, note, moveTo?.id)
    let updated = try await service.perform { backend throws(RaindropError) in
      let original = try await backend.bookmark(id: id)
      var modified = original
      // The seed's tag edits, shared with the bulk endpoint: add what is missing and remove, both
      // without regard to case.
      modified.tags = TagEditor.edit(modified.tags, adding: addTags ?? [], removing: removeTags ?? [])
      if let important { modified.important = important }
      if let title { modified.title = title }
      if let note { modified.note = note }
      if let moveTo { modified.collectionId = moveTo }
      // The seed's raindropUpdate(original:modified:): only the difference goes out, and nothing at all
      // when nothing changed.
      let changes = BookmarkChanges(from: original, to: modified)
      return changes.isEmpty ? original : try await backend.updateBookmark(id: id, changes)
    }
    return .result(value: BookmarkEntity(from: updated))
  }
}
