import FlowIntents
import Foundation
import Testing

struct EntityTests {
  @Test func reflectsPropertiesOfAnInstanceInDeclarationOrder() {
    let book = sampleBooks[1]
    guard case .entity(let value) = book.flowValue else {
      Issue.record("expected an entity")
      return
    }
    #expect(value.typeName == "Book")
    #expect(value.id == 2)
    #expect(value.title == "Solaris")
    #expect(value.subtitle == "example.org")
    #expect(value.properties.keys == ["title", "link", "tags", "is-favorite"])
    #expect(value.properties["is-favorite"] == true)
    #expect(book.propertyTitles.map(\.title) == ["Title", "URL", "Tags", "Favorite"])
  }

  @Test func exposesItsPropertyListWithoutAnInstance() {
    let schema = BookEntity.propertySchema
    #expect(schema.map(\.key) == ["id", "title", "link", "tags", "is-favorite"])
    #expect(schema.map(\.type) == [.integer, .text, .url, .list(.text), .boolean])
    #expect(BookEntity.valueType.property(named: "link") == .url)
    #expect(BookEntity.valueType.property(named: "link")?.property(named: "host") == .text)
    #expect(BookEntity.valueType.property(named: "titel") == nil)
  }

  @Test func propertiesAreReachableAsMagicVariablesWould() {
    let value = sampleBooks[0].flowValue
    #expect(value.property(named: "title") == "The Dispossessed")
    #expect(value.property(named: "link")?.property(named: "host") == "example.com")
    #expect(value.property(named: "tags")?.property(named: "count") == 1)
    #expect(value.property(named: "id") == 1)
  }

  @Test func resolvesAnEntityAnIdOrText() async throws {
    let (context, _) = testContext()
    let ids = try await IntentContext.$current.withValue(context) {
      [
        try await BookEntity.resolve(sampleBooks[0].flowValue, in: context).id,
        try await BookEntity.resolve(2, in: context).id,
        try await BookEntity.resolve("3", in: context).id,
        try await BookEntity.resolve("dispossessed", in: context).id,
        // Two books match "solaris"; one is titled exactly so.
        try await BookEntity.resolve("SOLARIS", in: context).id,
      ]
    }
    #expect(ids == [1, 2, 3, 1, 2])
  }

  @Test func asksToDisambiguateSeveralMatches() async throws {
    let (context, prompter) = testContext([.choice(1)])
    let book = try await IntentContext.$current.withValue(context) {
      try await BookEntity.resolve("sol", in: context)
    }
    #expect(book.id == 3)
    #expect(await prompter.asked == ["Which Book did you mean by 'sol'?"])
  }

  @Test func namesTheClosestEntitiesWhenNoneMatches() async throws {
    let (context, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) {
      try await IntentContext.$current.withValue(context) { try await BookEntity.resolve("Solaros", in: context) }
    }
    #expect(error?.kind == .entityNotFound)
    #expect(error?.message == "no Book matches 'Solaros'")
    #expect(error?.help == "did you mean 'Solaris'?")
  }
}

struct EnumTests {
  @Test(arguments: ["newest-first", "Newest First", "NEWEST FIRST", "newest-FIRST", " newest first "])
  func matchesByIDOrDisplayNameInAnyCase(text: String) throws {
    #expect(try BookSortOption(flowValue: .text(text)) == .newestFirst)
  }

  @Test func idsAreKebabCaseOfTheRawValue() throws {
    #expect(BookSortOption.allCases.map(\.id) == ["newest-first", "oldest-first", "title-a-z"])
    #expect(BookSortOption.titleAZ.displayName == "Title (A to Z)")
    #expect(try BookSortOption(flowValue: "title (a to z)") == .titleAZ)
  }

  @Test func refusesAnUnknownCaseListingTheChoices() {
    let error = #expect(throws: CoercionError.self) { try BookSortOption(flowValue: "newest-frist") }
    #expect(error?.message == "expected one of 'newest-first', 'oldest-first' or 'title-a-z', got 'newest-frist'")
    #expect(error?.help == "did you mean 'newest-first'?")
  }
}

/// An entity with a plain field between its properties, an optional one left unset and a large one after:
/// the properties read at their offsets (EntityLayout) are those `Mirror` finds, in the same order.
struct NoteEntity: AppEntity {
  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Note"
  static let defaultQuery = NoteQuery()

  var id: String
  @Property(title: "Text") var text: String
  var shelf: Int8 = 3
  @Property(title: "Due") var due: Date?
  @Property(title: "Flagged") var flagged: Bool
  @Property(title: "Lines") var lines: [String]

  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(text)") }

  init(id: String, text: String, flagged: Bool, lines: [String]) {
    self.id = id
    self.text = text
    self.flagged = flagged
    self.lines = lines
  }
}

struct NoteQuery: EntityQuery {
  func entities(for identifiers: [String]) async throws -> [NoteEntity] { [] }
}

struct EntityLayoutTests {
  @Test func propertiesAtTheirOffsetsAreThoseMirrorFinds() {
    let note = NoteEntity(id: "n1", text: "Buy bread", flagged: true, lines: ["a", "b"])
    let mirrored = Mirror(reflecting: note).children.compactMap { child -> (String, FlowValue)? in
      guard let property = child.value as? any AnyEntityProperty else { return nil }
      return (child.label ?? "", property.flowValue)
    }
    #expect(mirrored.map(\.0) == ["_text", "_due", "_flagged", "_lines"])
    #expect(note.propertyValues.keys == ["text", "due", "flagged", "lines"])
    #expect(note.propertyValues.values == mirrored.map(\.1))
    #expect(note.propertyValues["due"] == FlowValue.nothing)
    #expect(note.propertyTitles.map(\.title) == ["Text", "Due", "Flagged", "Lines"])
    // The same values from another instance: offsets, not a value remembered from the first.
    let other = NoteEntity(id: "n2", text: "Call", flagged: false, lines: [])
    #expect(other.propertyValues["text"] == "Call")
    #expect(other.propertyValues["flagged"] == false)
  }
}
