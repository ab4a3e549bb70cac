import FlowIntents
import Testing

enum OtherCatalog: IntentCatalog {
  static let namespace: String? = "other"
  static let title = "Other"
  static let intents: [any AppIntent.Type] = [SaveBookIntent.self]
}

struct RegistryTests {
  let registry = IntentRegistry(catalogs: [TestCatalog.self, OtherCatalog.self])

  @Test func findsByFullIDOrUniqueShortID() throws {
    #expect(try registry.descriptor(for: "test.get-books").id == "test.get-books")
    #expect(try registry.descriptor(for: "get-books").id == "test.get-books")
    #expect(try registry.descriptor(for: "other.save-book").catalogTitle == "Other")
  }

  @Test func anAmbiguousShortIDNamesTheCandidates() {
    let error = #expect(throws: IntentLookupError.self) { try registry.descriptor(for: "save-book") }
    #expect(error?.kind == .ambiguous)
    #expect(error?.message == "action 'save-book' is ambiguous")
    #expect(error?.help == "write it with its catalogue: 'test.save-book' or 'other.save-book'")
  }

  @Test func anUnknownIDSuggestsTheClosest() {
    let error = #expect(throws: IntentLookupError.self) { try registry.descriptor(for: "get-bokos") }
    #expect(error?.kind == .unknown)
    #expect(error?.diagnostic().code == "unknown-action")
    #expect(error?.help == "did you mean 'get-books'?")
  }

  @Test func groupsKeepCatalogueOrder() {
    #expect(registry.groups.map(\.title) == ["Test", "Other"])
    #expect(registry.ids.first == "test.delete-book")
  }

  @Test func checksLiteralsBeforeTheRun() throws {
    let save = try registry.descriptor(for: "other.save-book")
    #expect(save.parameter("url")?.check("https://example.com") == nil)
    #expect(save.parameter("url")?.check("not a url")?.message == "expected a URL for 'url', got 'not a url'")
    #expect(save.parameter("max-results")?.check(80)?.message == "'max-results' must be between 1 and 50, got 80")
    #expect(save.parameter("sort-by")?.check("newest frist")?.help == "did you mean 'newest-first'?")
    let delete = try registry.descriptor(for: "delete-book")
    #expect(delete.parameter("book")?.check("Solaris") == nil)
    #expect(
      delete.parameter("book")?.check(["a", "b"])?.help
        == "use 'for-each' to handle each item, or 'get-item' to pick one")
  }
}

struct ShortcutsTests {
  struct LibraryShortcuts: AppShortcutsProvider {
    static let applicationName = "Library"
    static var appShortcuts: [AppShortcut] {
      AppShortcut(
        intent: SaveBookIntent(), phrases: ["Save to \(.applicationName)", "Add a book to \(.applicationName)"],
        shortTitle: "Save Book", systemImageName: "book")
      AppShortcut(intent: GetBooksIntent(), phrases: ["List \(.applicationName)"])
    }
  }

  @Test func phrasesFillInTheApplicationName() {
    let phrases = LibraryShortcuts.phrases
    #expect(phrases.map(\.phrase) == ["save to library", "add a book to library", "list library"])
    #expect(
      phrases.map { String(describing: $0.shortcut.intentType) } == [
        "SaveBookIntent", "SaveBookIntent", "GetBooksIntent",
      ])
    #expect(LibraryShortcuts.appShortcuts.map(\.shortTitle) == ["Save Book", "Get Books"])
  }
}
