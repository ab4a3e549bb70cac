import FlowIntents
import FlowTestSupport
import Foundation

// A small catalogue shaped like the seed's Raindrop intents, to exercise the framework as a port would.

/// The books a test run knows: a service injected through the run's context, as a backend would be.
struct Library: Sendable {
  var books: [BookEntity]
}

struct BookEntity: AppEntity {
  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Book"
  static let defaultQuery = BookQuery()

  var id: Int

  @Property(title: "Title") var title: String
  @Property(title: "URL") var link: URL
  @Property(title: "Tags") var tags: [String]
  @Property(title: "Favorite") var isFavorite: Bool

  var displayRepresentation: DisplayRepresentation {
    DisplayRepresentation(title: "\(title)", subtitle: "\(link.host ?? "")")
  }

  init(id: Int, title: String, link: String, tags: [String] = [], isFavorite: Bool = false) {
    self.id = id
    self.title = title
    self.link = URL(string: link) ?? URL(fileURLWithPath: "/")
    self.tags = tags
    self.isFavorite = isFavorite
  }
}

struct BookQuery: EntityStringQuery {
  @Dependency var library: Library

  func entities(for identifiers: [Int]) async throws -> [BookEntity] {
    identifiers.compactMap { id in library.books.first { $0.id == id } }
  }

  func entities(matching string: String) async throws -> [BookEntity] {
    library.books.filter { $0.title.lowercased().contains(string.lowercased()) }
  }

  func suggestedEntities() async throws -> [BookEntity] { library.books }
}

enum BookSortOption: String, AppEnum {
  case newestFirst, oldestFirst
  case titleAZ = "title-a-z"

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sort Order"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .newestFirst: "Newest First",
    .oldestFirst: "Oldest First",
    .titleAZ: "Title (A to Z)",
  ]
}

struct SaveBookIntent: AppIntent {
  static let title: LocalizedStringResource = "Save Book"
  static let description = IntentDescription("Save a book to the library.")
  static let sideEffect = SideEffect.changes

  @Parameter(title: "URL", primary: true)
  var url: URL

  @Parameter(title: "Title")
  var title: String?

  @Parameter(title: "Add Tags")
  var addTags: [String]?

  @Parameter(title: "Maximum Results", default: 25, inclusiveRange: (1, 50))
  var maxResults: Int

  @Parameter(title: "Sort By", default: .newestFirst)
  var sortBy: BookSortOption

  static var parameterSummary: some ParameterSummary {
    Summary("Save \(\.$url) to the library") {
      \.$title
      \.$addTags
      \.$maxResults
      \.$sortBy
    }
  }

  func perform() async throws -> some ReturnsValue<BookEntity> & ProvidesDialog {
    let book = BookEntity(id: 7, title: title ?? "Untitled", link: url.absoluteString, tags: addTags ?? [])
    return .result(value: book, dialog: "Saved \(book.title) (\(maxResults), \(sortBy.id))")
  }
}

struct DeleteBookIntent: AppIntent {
  static let title: LocalizedStringResource = "Delete Book"
  static let description = IntentDescription("Move a book to the bin.")
  static let sideEffect = SideEffect.destructive
  static let requiresConfirmation = true

  @Parameter(title: "Book")
  var book: BookEntity

  static var parameterSummary: some ParameterSummary {
    Summary("Delete \(\.$book)")
  }

  func perform() async throws -> some IntentResult {
    .result()
  }
}

struct GetBooksIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Books"
  static let description = IntentDescription("List the books.")

  @Dependency var library: Library

  func perform() async throws -> some ReturnsValue<[BookEntity]> {
    .result(value: library.books)
  }
}

/// An intent that asks for things from inside `perform()`, like the seed's AddBook.
struct PickAuthorIntent: AppIntent {
  static let title: LocalizedStringResource = "Pick Author"
  static let description = IntentDescription("Pick an author.")

  @Parameter(title: "Author Name")
  var authorName: String?

  static var parameterSummary: some ParameterSummary {
    Summary("Pick \(\.$authorName)")
  }

  func perform() async throws -> some ReturnsValue<String> {
    if authorName == nil {
      let chosen = try await $authorName.requestDisambiguation(among: ["Le Guin", "Lem"], dialog: "Which author?")
      guard try await $authorName.requestConfirmation(for: chosen, dialog: "Use \(chosen ?? "")?") else {
        return .result(value: "nobody")
      }
      return .result(value: chosen ?? "")
    }
    return .result(value: authorName ?? "")
  }
}

enum TestCatalog: IntentCatalog {
  static let namespace: String? = "test"
  static let title = "Test"
  static let intents: [any AppIntent.Type] = [
    DeleteBookIntent.self, GetBooksIntent.self, PickAuthorIntent.self, SaveBookIntent.self,
  ]
}

let sampleBooks = [
  BookEntity(id: 1, title: "The Dispossessed", link: "https://example.com/dispossessed", tags: ["sf"]),
  BookEntity(id: 2, title: "Solaris", link: "https://example.org/solaris", isFavorite: true),
  BookEntity(id: 3, title: "Solaris Notes", link: "https://example.org/notes"),
]

func testContext(_ answers: [ScriptedPrompter.Answer] = []) -> (IntentContext, ScriptedPrompter) {
  let prompter = ScriptedPrompter(answers)
  let context = IntentContext(prompter: prompter, clock: ManualClock(), random: SeededRandomSource(seed: 1))
    .with(Library(books: sampleBooks))
  return (context, prompter)
}

/// Confirms its result before returning it, like the seed's BuyBook; throws needsValueError without a count.
struct OrderBookIntent: AppIntent {
  static let title: LocalizedStringResource = "Order Book"
  static let description = IntentDescription("Order copies of a book.")
  static let sideEffect = SideEffect.changes

  @Parameter(title: "Count", requestValueDialog: "How many copies?")
  var count: Int?

  static var parameterSummary: some ParameterSummary {
    Summary("Order \(\.$count) copies")
  }

  func perform() async throws -> some ProvidesDialog {
    guard let count else { throw $count.needsValueError() }
    try await requestConfirmation(result: .result(dialog: "Order \(count) copies?"))
    return .result(dialog: "Ordered \(count) copies")
  }
}
