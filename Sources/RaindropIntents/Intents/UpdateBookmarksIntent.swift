import FlowIntents
import RaindropModel

/// Tags, untags, stars or moves many bookmarks at once; the REST client sends up to 100 per request, so
/// tagging N bookmarks costs ⌈N/100⌉ requests instead of N.
struct UpdateBookmarksIntent: AppIntent {
  static let title: LocalizedStringResource = "Update Bookmarks"
  static let description = IntentDescription("Tag, untag, favorite or move many bookmarks at once.")
  // Moving to Trash is deleting (delete-bookmark does no more), so `move-to` decides: see sideEffect(for:).
  static let sideEffect = SideEffect.destructive
  static let sideEffectParameters: Set<String> = ["move-to"]
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let openAppWhenRun = false

  /// Bookmarks, or their ids.
  @Parameter(title: "Bookmarks", primary: true)
  var bookmarks: [FlowValue]

  @Parameter(title: "Add Tags")
  var addTags: [String]?

  @Parameter(title: "Remove Tags")
  var removeTags: [String]?

  @Parameter(title: "Favorite", key: "favorite")
  var important: Bool?

  @Parameter(title: "Move To")
  var moveTo: CollectionEntity?

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Update \(\.$bookmarks)") {
      \.$addTags
      \.$removeTags
      \.$important
      \.$moveTo
    }
  }

  /// Destructive when the bookmarks may go to Trash; otherwise a change.
  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    CollectionEntity.sideEffect(movingTo: values)
  }

  /// Moving to Trash is what a person is asked about, not the update.
  static func confirmationQuestion(for values: [String: FlowValue]) -> String? {
    guard sideEffect(for: values) == .destructive, let bookmarks = values["bookmarks"] else { return nil }
    return "Move \(ConfirmationWords.things(bookmarks)) to the Trash?"
  }

  func perform() async throws -> some ReturnsValue<Int> {
    let ids = try bookmarks.map(Self.id(of:))
    let change = BulkChange(
      addTags: addTags ?? [], removeTags: removeTags ?? [], important: important, moveTo: moveTo?.id)
    guard !ids.isEmpty, !change.isEmpty else { return .result(value: 0) }
    // One call: the backend batches (100 ids a request for the REST API) and, when a batch fails, says which
    // bookmarks the earlier ones changed.
    let updated = try await service.perform { backend throws(RaindropError) in
      try await backend.updateBookmarks(ids: ids, in: SystemCollection.all.rawValue, change)
    }
    return .result(value: updated)
  }

  /// A bookmark's id: from a Bookmark, or a number.
  static func id(of value: FlowValue) throws -> Int {
    switch value {
    case .entity(let entity) where entity.typeName == BookmarkEntity.typeDisplayRepresentation.name:
      if case .number(let id) = entity.id, let int = Int(exactly: id) { return int }
    case .number(let number):
      if let int = Int(exactly: number) { return int }
    case .text(let text):
      if let int = Int(text) { return int }
    default:
      break
    }
    throw AppIntentError(.invalidValue, "expected bookmarks or bookmark ids for 'bookmarks', got \(value.quoted)")
  }
}
