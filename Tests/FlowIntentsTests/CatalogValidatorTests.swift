import FlowIntents
import Testing

// A deliberately broken catalogue: every rule the validator knows is broken once.

enum BrokenChoice: String, AppEnum {
  case one, two, three
  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Broken Choice"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [.one: "Same", .two: "same"]
}

struct BrokenIntent: AppIntent {
  static let title: LocalizedStringResource = ""
  static let description = IntentDescription("")
  static let networkAccess = NetworkAccess.hostOfParameter("count")

  @Parameter(title: "Count", default: 99, inclusiveRange: (1, 10), primary: true)
  var count: Int

  @Parameter(title: "Name", inclusiveRange: (5, 1), primary: true, key: "Bad_Key")
  var name: String?

  @Parameter(title: "Choice", default: .one)
  var choice: BrokenChoice

  @Parameter(title: "Other", key: "choice")
  var other: String?

  @Dependency var prompter: any Prompter

  static var parameterSummary: some ParameterSummary {
    Summary("Count \(\.$count) and \(\.$count)")
  }

  func perform() async throws -> some IntentResult { .result() }
}

struct UnsummarisedIntent: AppIntent {
  static let title: LocalizedStringResource = "Unsummarised"
  static let description = IntentDescription("Has parameters and no summary.")
  static let identifier = "Unsummarised"

  @Parameter(title: "Thing")
  var thing: String

  func perform() async throws -> some IntentResult { .result() }
}

struct SaveBookCopyIntent: AppIntent {
  static let title: LocalizedStringResource = "Save Book Copy"
  static let description = IntentDescription("Claims another intent's id.")
  static let identifier = "save-book"
  func perform() async throws -> some IntentResult { .result() }
}

enum UnsortedCatalog: IntentCatalog {
  static let namespace: String? = "broken"
  static let title = "Broken"
  static let intents: [any AppIntent.Type] = [SaveBookIntent.self, GetBooksIntent.self]
}

struct CatalogValidatorTests {
  @Test func passesOverAWellFormedCatalogue() {
    let problems = CatalogValidator.validate([TestCatalog.self])
    #expect(problems.isEmpty, "\(problems.map(\.description))")
  }

  @Test func namesEveryProblemOfABrokenIntent() {
    let problems = CatalogValidator.validate(intents: [BrokenIntent.self, UnsummarisedIntent.self])
    let found = problems.map(\.description)
    let expected = [
      "BrokenIntent: the title is empty [has-title]",
      "BrokenIntent: the description is empty [has-description]",
      "BrokenIntent: the default of 'count', 99, is outside 1...10 [defaults-in-range]",
      "BrokenIntent: parameter key 'Bad_Key' is not kebab-case [kebab-case-keys]",
      "BrokenIntent: the range of 'Bad_Key' ends before it starts [valid-ranges]",
      "BrokenIntent: 'Bad_Key' has a range but is not a number [valid-ranges]",
      "enum 'Broken Choice': two cases are shown as 'same' [unique-enum-display-names]",
      "enum 'Broken Choice': case 'three' has no display representation [enum-cases-have-display-names]",
      "BrokenIntent: two parameters have the key 'choice' [unique-keys]",
      "BrokenIntent: 2 parameters are primary: 'count' and 'Bad_Key' [at-most-one-primary]",
      "BrokenIntent: the summary does not mention 'Bad_Key' [summary-mentions-every-parameter]",
      "BrokenIntent: the summary does not mention 'choice' [summary-mentions-every-parameter]",
      "BrokenIntent: the summary does not mention 'choice' [summary-mentions-every-parameter]",
      "BrokenIntent: the summary mentions 'count' more than once [summary-mentions-every-parameter]",
      "BrokenIntent: its network access names 'count', which is not a URL parameter [network-parameter-is-url]",
      "BrokenIntent: it asks the person through a Prompter but declares no 'prompts' [prompts-declared]",
      "UnsummarisedIntent: id 'Unsummarised' is not kebab-case [kebab-case-ids]",
      "UnsummarisedIntent: it has parameters but no parameter summary [has-summary]",
    ]
    #expect(found == expected)
  }

  @Test func reportsAnUnsortedRegistry() {
    let problems = CatalogValidator.validate([UnsortedCatalog.self, TestCatalog.self]).map(\.description)
    #expect(
      problems == [
        "UnsortedCatalog: intents are not sorted by id; expected broken.get-books, broken.save-book [sorted-registry]"
      ])
  }

  @Test func reportsTwoIntentsWithOneID() {
    let problems = CatalogValidator.validate(intents: [SaveBookIntent.self, SaveBookCopyIntent.self])
    #expect(
      problems.map(\.description) == [
        "SaveBookCopyIntent: id 'save-book' is also the id of SaveBookIntent [unique-ids]"
      ])
  }
}
