import FlowIntents
import Foundation
import Testing

// The seed's Raindrop.io intents (shared/seeds/000_…), ported as the Raindrop catalogue will port them:
// the declarations are the seed's, line for line, except `static let` for Swift 6, an injected service
// instead of `IntentService.shared`, and raw values where SPEC §2 spells an enum id the rule would not.

struct Raindrop: Sendable {
  var id: Int, title: String, link: URL, note = "", tags: [String] = [], collection = -1, important = false
  var created = Date(timeIntervalSince1970: 1_795_000_000)
}

/// Stands in for the REST client the seed reaches through `IntentService.shared`.
final class RaindropService: @unchecked Sendable {
  private let lock = NSLock()
  private var raindrops: [Raindrop] = [
    Raindrop(id: 1, title: "Swift Testing", link: URL(fileURLWithPath: "/testing"), tags: ["swift"])
  ]
  let collections: [(id: Int, title: String, count: Int)] = [(-1, "Unsorted", 1), (7, "Reading List", 0)]

  var all: [Raindrop] { lock.withLock { raindrops } }
  func create(_ raindrop: Raindrop) -> Raindrop {
    lock.withLock {
      var created = raindrop
      created.id = (raindrops.map(\.id).max() ?? 0) + 1
      raindrops.append(created)
      return created
    }
  }
  func update(_ raindrop: Raindrop) -> Raindrop {
    lock.withLock {
      if let index = raindrops.firstIndex(where: { $0.id == raindrop.id }) { raindrops[index] = raindrop }
      return raindrop
    }
  }
}

struct BookmarkEntity: AppEntity {
  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Bookmark"
  static let defaultQuery = BookmarkQuery()

  var id: Int

  @Property(title: "Title") var title: String
  @Property(title: "URL") var link: URL
  @Property(title: "Note") var note: String
  @Property(title: "Tags") var tags: [String]
  @Property(title: "Collection ID") var collectionId: Int
  @Property(title: "Favorite") var favorite: Bool
  @Property(title: "Created") var created: Date

  var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(
      title: "\(title)",
      subtitle: "\(link.host ?? link.absoluteString)"
    )
  }

  init(from raindrop: Raindrop) {
    self.id = raindrop.id
    self.title = raindrop.title
    self.link = raindrop.link
    self.note = raindrop.note
    self.tags = raindrop.tags
    self.collectionId = raindrop.collection
    self.favorite = raindrop.important
    self.created = raindrop.created
  }
}

struct CollectionEntity: AppEntity {
  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Collection"
  static let defaultQuery = CollectionQuery()

  var id: Int

  @Property(title: "Title") var title: String
  @Property(title: "Count") var count: Int

  private var systemImage: String

  var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(
      title: "\(title)",
      subtitle: "\(count) items",
      image: .init(systemName: systemImage)
    )
  }

  init(id: Int, title: String, count: Int) {
    // Plain stored properties first: assigning a @Property goes through self.
    self.id = id
    self.systemImage = id < 0 ? "tray" : "folder"
    self.title = title
    self.count = count
  }
}

struct CollectionQuery: EntityStringQuery {
  @Dependency var rest: RaindropService

  func entities(for identifiers: [Int]) async throws -> [CollectionEntity] {
    identifiers.compactMap { id in
      rest.collections.first(where: { $0.id == id }).map {
        CollectionEntity(id: $0.id, title: $0.title, count: $0.count)
      }
    }
  }

  func entities(matching string: String) async throws -> [CollectionEntity] {
    let lowered = string.lowercased()
    return rest.collections.filter { $0.title.lowercased().contains(lowered) }
      .map { CollectionEntity(id: $0.id, title: $0.title, count: $0.count) }
  }

  func suggestedEntities() async throws -> [CollectionEntity] {
    rest.collections.map { CollectionEntity(id: $0.id, title: $0.title, count: $0.count) }
  }
}

struct BookmarkQuery: EntityStringQuery {
  @Dependency var rest: RaindropService

  func entities(for identifiers: [Int]) async throws -> [BookmarkEntity] {
    identifiers.compactMap { id in rest.all.first { $0.id == id }.map(BookmarkEntity.init(from:)) }
  }

  func entities(matching string: String) async throws -> [BookmarkEntity] {
    rest.all.filter { $0.title.lowercased().contains(string.lowercased()) }.map(BookmarkEntity.init(from:))
  }

  func suggestedEntities() async throws -> [BookmarkEntity] {
    rest.all.prefix(25).map(BookmarkEntity.init(from:))
  }
}

enum IntentServiceError: Error, CustomLocalizedStringResourceConvertible {
  case notAuthenticated

  var localizedStringResource: LocalizedStringResource {
    switch self {
    case .notAuthenticated: "Please log in to Raindrop.io first"
    }
  }
}

struct SaveBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Save Bookmark"
  static let description: IntentDescription = "Save a URL to Raindrop.io"
  static let openAppWhenRun = false
  static let sideEffect = SideEffect.changes

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Parameter(title: "Title")
  var title: String?

  @Parameter(title: "Collection")
  var collection: CollectionEntity?

  @Parameter(title: "Tags")
  var tags: [String]?

  @Dependency var rest: RaindropService

  static var parameterSummary: some ParameterSummary {
    Summary("Save \(\.$url) to Raindrop.io") {
      \.$title
      \.$collection
      \.$tags
    }
  }

  func perform() async throws -> some ReturnsValue<BookmarkEntity> {
    var raindrop = Raindrop(id: 0, title: url.host ?? "", link: url, collection: collection?.id ?? -1)
    if let title, !title.isEmpty { raindrop.title = title }
    if let tags, !tags.isEmpty { raindrop.tags = tags }
    let created = rest.create(raindrop)
    return .result(value: BookmarkEntity(from: created))
  }
}

struct GetBookmarksIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Bookmarks"
  static let description: IntentDescription = "Get or search bookmarks in Raindrop.io"
  static let openAppWhenRun = false

  @Parameter(title: "Collection")
  var collection: CollectionEntity?

  @Parameter(title: "Search Text")
  var searchText: String?

  @Parameter(title: "Sort By", default: .newestFirst)
  var sortBy: BookmarkSortOption

  @Parameter(
    title: "Maximum Results", default: 25,
    controlStyle: .stepper, inclusiveRange: (1, 50))
  var maxResults: Int

  @Dependency var rest: RaindropService

  static var parameterSummary: some ParameterSummary {
    Summary("Get bookmarks") {
      \.$collection
      \.$searchText
      \.$sortBy
      \.$maxResults
    }
  }

  func perform() async throws -> some ReturnsValue<[BookmarkEntity]> {
    let found = rest.all.filter { raindrop in
      (collection == nil || raindrop.collection == collection?.id)
        && (searchText.map { raindrop.title.lowercased().contains($0.lowercased()) } ?? true)
    }
    return .result(value: Array(found.prefix(maxResults)).map { BookmarkEntity(from: $0) })
  }
}

enum BookmarkSortOption: String, AppEnum {
  case newestFirst, oldestFirst
  case titleAZ = "title-a-z"
  case titleZA = "title-z-a"

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sort Order"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .newestFirst: "Newest First",
    .oldestFirst: "Oldest First",
    .titleAZ: "Title (A to Z)",
    .titleZA: "Title (Z to A)",
  ]
}

struct GetCollectionsIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Collections"
  static let description: IntentDescription = "List all Raindrop.io collections"
  static let openAppWhenRun = false

  @Dependency var rest: RaindropService

  func perform() async throws -> some ReturnsValue<[CollectionEntity]> {
    .result(value: rest.collections.map { CollectionEntity(id: $0.id, title: $0.title, count: $0.count) })
  }
}

struct UpdateBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Update Bookmark"
  static let description: IntentDescription = "Update tags or favorite status of a bookmark"
  static let openAppWhenRun = false
  static let sideEffect = SideEffect.changes

  @Parameter(title: "Bookmark")
  var bookmark: BookmarkEntity

  @Parameter(title: "Add Tags")
  var addTags: [String]?

  @Parameter(title: "Remove Tags")
  var removeTags: [String]?

  @Parameter(title: "Favorite", key: "favorite")
  var important: Bool?

  @Dependency var rest: RaindropService

  static var parameterSummary: some ParameterSummary {
    Summary("Update \(\.$bookmark)") {
      \.$addTags
      \.$removeTags
      \.$important
    }
  }

  func perform() async throws -> some ReturnsValue<BookmarkEntity> {
    guard var modified = rest.all.first(where: { $0.id == bookmark.id }) else {
      throw IntentServiceError.notAuthenticated
    }
    if let addTags, !addTags.isEmpty {
      let existingLower = Set(modified.tags.map { $0.lowercased() })
      modified.tags += addTags.filter { !existingLower.contains($0.lowercased()) }
    }
    if let removeTags, !removeTags.isEmpty {
      let removeLower = Set(removeTags.map { $0.lowercased() })
      modified.tags = modified.tags.filter { !removeLower.contains($0.lowercased()) }
    }
    if let important { modified.important = important }
    return .result(value: BookmarkEntity(from: rest.update(modified)))
  }
}

struct DeleteBookmarkIntent: AppIntent {
  static let title: LocalizedStringResource = "Delete Bookmark"
  static let description: IntentDescription = "Move a bookmark to trash"
  static let openAppWhenRun = false
  static let sideEffect = SideEffect.destructive
  static let requiresConfirmation = true

  @Parameter(title: "Bookmark")
  var bookmark: BookmarkEntity

  static var parameterSummary: some ParameterSummary {
    Summary("Delete \(\.$bookmark)")
  }

  func perform() async throws -> some IntentResult {
    .result()
  }
}

struct ShortcutsProvider: AppShortcutsProvider {
  static let applicationName = "Raindrop"
  static var appShortcuts: [AppShortcut] {
    AppShortcut(
      intent: SaveBookmarkIntent(),
      phrases: [
        "Save bookmark in \(.applicationName)",
        "Save to \(.applicationName)",
        "Add bookmark to \(.applicationName)",
      ],
      shortTitle: "Save Bookmark",
      systemImageName: "bookmark.fill"
    )

    AppShortcut(
      intent: GetCollectionsIntent(),
      phrases: ["Show my \(.applicationName) collections"],
      shortTitle: "Collections",
      systemImageName: "folder"
    )
  }
}

enum SeedCatalog: IntentCatalog {
  static let namespace: String? = "raindrop"
  static let title = "Raindrop.io"
  static let intents: [any AppIntent.Type] = [
    DeleteBookmarkIntent.self, GetBookmarksIntent.self, GetCollectionsIntent.self, SaveBookmarkIntent.self,
    UpdateBookmarkIntent.self,
  ]
  static let shortcuts: (any AppShortcutsProvider.Type)? = ShortcutsProvider.self
}

struct SeedPortTests {
  let registry = IntentRegistry(catalogs: [SeedCatalog.self])
  let service = RaindropService()
  var context: IntentContext { IntentContext(prompter: ScriptedPrompter([.confirmation(true)])).with(service) }

  @Test func theSeedDeclarationsPassTheValidator() {
    let problems = CatalogValidator.validate([SeedCatalog.self])
    #expect(problems.isEmpty, "\(problems.map(\.description))")
  }

  @Test func parametersMatchSpecSection2() throws {
    let get = try registry.descriptor(for: "get-bookmarks")
    #expect(get.id == "raindrop.get-bookmarks")
    #expect(get.parameters.map(\.key) == ["collection", "search-text", "sort-by", "max-results"])
    #expect(get.parameter("sort-by")?.choices?.map(\.id) == ["newest-first", "oldest-first", "title-a-z", "title-z-a"])
    #expect(get.parameter("max-results")?.range == 1...50)
    #expect(get.parameter("max-results")?.defaultValue == 25)
    #expect(get.outputType?.name == "List of Bookmark")
    let update = try registry.descriptor(for: "update-bookmark")
    #expect(update.parameters.map(\.key) == ["bookmark", "add-tags", "remove-tags", "favorite"])
    #expect(
      BookmarkEntity.propertySchema.map(\.key)
        == ["id", "title", "link", "note", "tags", "collection-id", "favorite", "created"])
    #expect(try registry.descriptor(for: "delete-bookmark").requiresConfirmation)
  }

  @Test func saveThenUpdateByTitleChainsTheEntity() async throws {
    let saved = try await registry.descriptor(for: "save-bookmark").run(
      values: ["url": "https://example.com/page", "collection": "reading", "tags": "inbox"], context: context)
    #expect(saved.value.property(named: "collection-id") == 7)
    #expect(saved.value.property(named: "link")?.property(named: "host") == "example.com")
    let updated = try await registry.descriptor(for: "update-bookmark").run(
      values: ["bookmark": saved.value, "add-tags": ["later", "INBOX"], "favorite": true], context: context)
    #expect(updated.value.property(named: "tags") == ["inbox", "later"])
    #expect(updated.value.property(named: "favorite") == true)
  }

  @Test func anUnknownCollectionNamesTheClosest() async throws {
    let error = await #expect(throws: AppIntentError.self) {
      try await registry.descriptor(for: "save-bookmark").run(
        values: ["url": "https://example.com", "collection": "Unsortd"], context: context)
    }
    #expect(error?.message == "no Collection matches 'Unsortd'")
    #expect(error?.help == "did you mean 'Unsorted'?")
  }

  @Test func readableErrorsOfTheSeedPattern() {
    #expect(
      AppIntentError.describe(IntentServiceError.notAuthenticated).message == "Please log in to Raindrop.io first")
  }

  @Test func appShortcutPhrases() {
    #expect(SeedCatalog.shortcuts?.phrases.map(\.phrase).contains("save to raindrop") == true)
  }
}
