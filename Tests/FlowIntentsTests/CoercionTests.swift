import FlowModel
import Foundation
import Testing

@testable import FlowIntents

struct CoercionTests {
  let book = sampleBooks[0].flowValue

  @Test func entityGivesItsLinkWhereAURLIsWanted() throws {
    #expect(try Coercion.coerce(book, to: .url).text == "https://example.com/dispossessed")
    #expect(try Coercion.coerce(book, to: .url).typeName == "URL")
    #expect(try URL(flowValue: book).host == "example.com")
  }

  @Test func entityGivesItsTitleWhereTextIsWanted() throws {
    #expect(try Coercion.coerce(book, to: .text) == "The Dispossessed")
    #expect(try String(flowValue: book) == "The Dispossessed")
  }

  @Test(arguments: [
    (FlowValue.number(3), "3"), (1.1, "1.1"), (-0.5, "-0.5"), (1e20, "1e+20"), (true, "true"), (false, "false"),
  ])
  func numbersAndBooleansAsText(value: FlowValue, text: String) throws {
    #expect(try Coercion.coerce(value, to: .text) == .text(text))
  }

  /// A whole list given as text is one item per line, as Shortcuts makes it; inside other text, ", ".
  @Test func listAsTextJoinsItsItems() throws {
    #expect(try Coercion.coerce([1, "two", book], to: .text) == "1\ntwo\nThe Dispossessed")
    #expect(Coercion.text(of: [1, "two", book]) == "1, two, The Dispossessed")
  }

  @Test(arguments: [("42", 42.0), (" 1.5 ", 1.5), ("-3", -3.0), ("1e3", 1000.0)])
  func textToNumber(text: String, number: Double) throws {
    #expect(try Coercion.coerce(.text(text), to: .number) == .number(number))
  }

  @Test func textThatIsNotANumberIsRefused() {
    let error = #expect(throws: CoercionError.self) { try Coercion.coerce("lots", to: .number) }
    #expect(error?.message == "expected a number, got 'lots'")
    let whole = #expect(throws: CoercionError.self) { try Int(flowValue: 2.5) }
    #expect(whole?.message == "expected a whole number, got 2.5")
    // The parameter's name goes between the halves, so the checker can say which parameter it was.
    #expect(whole?.message(forParameter: "limit") == "expected a whole number for 'limit', got 2.5")
  }

  /// Every type a person may not know how to spell says how, as the diagnostic's help line.
  @Test func refusalsSayHowToWriteTheType() {
    let cases: [(FlowValue, ValueType, String)] = [
      ("lots", .number, "write a number, like 12 or 2.5"), (2.5, .integer, "write a whole number, like 12"),
      ("not a url", .url, "write a web address, like 'https://example.com' or 'example.com/page'"),
      ("yes", .boolean, "write 'true' or 'false'"),
      ("soon", .duration, "write a duration as '30s', '2m', '1h30m' or '500ms'"),
      ("not json", .dictionary, "write a mapping of names to values, like '{title: Swift, stars: 5}'"),
    ]
    for (value, type, help) in cases {
      let error = #expect(throws: CoercionError.self) { try Coercion.coerce(value, to: type) }
      #expect(error?.help == help, "\(type)")
    }
  }

  @Test func textToURL() throws {
    #expect(try URL(flowValue: "https://example.com/a?b=1").absoluteString == "https://example.com/a?b=1")
    #expect(try URL(flowValue: "example.com/page").absoluteString == "https://example.com/page")
    #expect(try URL(flowValue: "mailto:someone@example.com").scheme == "mailto")
    let error = #expect(throws: CoercionError.self) { try URL(flowValue: "not a url") }
    #expect(error?.message == "expected a URL, got 'not a url'")
    #expect(throws: CoercionError.self) { try URL(flowValue: "http://") }
  }

  @Test func textToDate() throws {
    #expect(try Date(flowValue: "2026-11-21") == Date(timeIntervalSince1970: 1_795_219_200))
    #expect(try Date(flowValue: "2026-11-21T14:30:00Z") == Date(timeIntervalSince1970: 1_795_271_400))
    #expect(try Date(flowValue: "2026-11-21T16:30:00+02:00") == Date(timeIntervalSince1970: 1_795_271_400))
    let error = #expect(throws: CoercionError.self) { try Date(flowValue: "next tuesday") }
    #expect(error?.message == "expected a date, got 'next tuesday'")
    #expect(error?.help == "write a date as '2026-11-21' or '2026-11-21T14:30:00Z'")
    #expect(Coercion.text(of: .date(Date(timeIntervalSince1970: 1_795_271_400))) == "2026-11-21T14:30:00Z")
  }

  /// The shapes ICU's formats take, loose digit counts and a tab included, still read once text that is
  /// no date stops before any formatter is made.
  @Test(arguments: [
    ("2026-1-5", "2026-01-05T00:00:00Z"), ("2026-01-05  10:00", "2026-01-05T10:00:00Z"),
    ("2026-01-05\t10:00", "2026-01-05T10:00:00Z"), ("2026-01-5T10:00:00.5Z", "2026-01-05T10:00:00Z"),
    ("2026-01-05T10:00+02:00", "2026-01-05T08:00:00Z"),
  ])
  func datesInEveryShapeTheFormatsTake(text: String, date: String) {
    #expect(DateParsing.parse(text).map(DateParsing.format) == date)
  }

  @Test(arguments: ["2026-01-05x", "-2026-01-05", "2026-01", "tomorrow", "2026-01-05t10:00", ""])
  func textThatIsNoDate(text: String) { #expect(DateParsing.parse(text) == nil) }

  /// Foundation's DateFormatter traps on a combining mark after a digit; such text is no date.
  @Test func textWithACombiningMarkIsNoDate() {
    #expect(DateParsing.parse("2\u{73C}") == nil)
    #expect(throws: CoercionError.self) { try DateWords.read("2\u{73C}", now: Date()) }
    #expect(throws: CoercionError.self) { try Coercion.coerce("2026-11-2\u{73C}", to: .date) }
  }

  @Test func textToBoolean() throws {
    #expect(try Bool(flowValue: "TRUE") == true)
    #expect(try Bool(flowValue: "false") == false)
    let error = #expect(throws: CoercionError.self) { try Bool(flowValue: "no") }
    #expect(error?.message == "expected 'true' or 'false', got 'no'")
  }

  @Test func oneValueWhereAListIsWantedBecomesAOneItemList() throws {
    #expect(try Coercion.coerce("inbox", to: .list(.text)) == ["inbox"])
    #expect(try [String](flowValue: "inbox") == ["inbox"])
    #expect(try [Int](flowValue: ["1", 2]) == [1, 2])
    #expect(try Coercion.coerce(.nothing, to: .list(.text)) == [])
  }

  @Test func aListWhereOneValueIsWantedIsRefusedNamingForEachAndGetItem() {
    let error = #expect(throws: CoercionError.self) { try Coercion.coerce(["a", "b"], to: .url) }
    #expect(error?.message == "expected one URL, got a list of 2 items")
    #expect(error?.help == "use 'for-each' to handle each item, or 'get-item' to pick one")
    #expect(throws: CoercionError.self) { try Int(flowValue: [1]) }
  }

  @Test func listItemsAreCoercedOneByOneAndNamedWhenWrong() {
    let error = #expect(throws: CoercionError.self) { try Coercion.coerce([1, "x"], to: .list(.number)) }
    #expect(error?.message == "item 2: expected a number, got 'x'")
  }

  @Test func durations() throws {
    #expect(try Duration(flowValue: "30s") == .seconds(30))
    #expect(try Duration(flowValue: "2m") == .seconds(120))
    #expect(try Duration(flowValue: "1h30m") == .seconds(5400))
    #expect(try Duration(flowValue: "500ms") == .milliseconds(500))
    #expect(try Duration(flowValue: 1.5) == .milliseconds(1500))
    #expect(Duration.seconds(5400).flowValue == "1h30m")
    let error = #expect(throws: CoercionError.self) { try Duration(flowValue: "soon") }
    #expect(error?.message == "expected a duration, got 'soon'")
    #expect(DurationParsing.parse("5x") == nil)
    #expect(DurationParsing.parse("-5s") == nil)
  }

  /// A number or text past the longest duration is refused before it becomes a `Duration` (which trapped).
  @Test func durationsPastTheLongestAreRefused() {
    for value: FlowValue in [
      1e300, .number(.infinity), "1e300", "99999999999999999d", 31_622_401, "1h3h3003003000300300300m",
    ] {
      let error = #expect(throws: CoercionError.self) { try Duration(flowValue: value) }
      #expect(error?.message == "\(value.quoted) is too long: the longest duration is 366d")
    }
  }

  @Test func uuids() throws {
    let text = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    #expect(try UUID(flowValue: .text(text)).uuidString == text)
    let error = #expect(throws: CoercionError.self) { try UUID(flowValue: "e621") }
    #expect(error?.message == "expected a UUID, got 'e621'")
  }

  @Test func dictionariesFromJSONTextAndEntities() throws {
    #expect(try FlowDictionary(flowValue: #"{"b": 1, "a": [true, null]}"#).keys == ["b", "a"])
    #expect(try FlowDictionary(flowValue: book)["title"] == "The Dispossessed")
    #expect(throws: CoercionError.self) { try FlowDictionary(flowValue: "not json") }
  }

  @Test func typeNamesForDiagnostics() {
    #expect(FlowValue.text("a").typeName == "Text")
    #expect(FlowValue.number(1).typeName == "Number")
    #expect(book.typeName == "Book")
    #expect(FlowValue.list([book, book]).typeName == "List of Book")
    #expect(FlowValue.list([1, "a"]).typeName == "List")
    #expect(ValueType.list(BookEntity.valueType).name == "List of Book")
    #expect(ValueType.list(.text).spelling == "[text]")
    #expect(ValueType(spelling: "[url]") == .list(.url))
    #expect(ValueType(spelling: "colour") == nil)
  }
}

struct JSONTests {
  @Test func parsesKeepingKeyOrderAndBooleans() throws {
    let value = try JSON.parse(#"{"z": true, "a": 1, "m": [1.5, "x\n\u00e9", null], "o": {}}"#)
    guard case .dictionary(let dictionary) = value else {
      Issue.record("expected a dictionary")
      return
    }
    #expect(dictionary.keys == ["z", "a", "m", "o"])
    #expect(dictionary["z"] == true)
    #expect(dictionary["a"] == 1)
    #expect(dictionary["m"] == [1.5, "x\né", .nothing])
  }

  /// A key that comes again keeps the first one's place with the last value (as setting it does), and
  /// an object of 200,000 keys (from a server, say) is read in one pass, not by searching before each key.
  @Test func repeatedKeysAndManyKeys() throws {
    #expect(JSON.encode(try JSON.parse(#"{"a":1,"b":2,"a":3}"#)) == #"{"a":3,"b":2}"#)
    #expect(FlowDictionary([("a", 1), ("b", 2), ("a", 3)]).entries.map(\.key) == ["a", "b"])
    let text = "{" + (0..<200_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
    guard case .dictionary(let dictionary) = try JSON.parse(text) else {
      Issue.record("expected a dictionary")
      return
    }
    #expect(dictionary.count == 200_000)
    #expect(dictionary["k199999"] == 199_999)
  }

  @Test func encodesWhatItParses() throws {
    let text = #"{"z":true,"a":1,"m":[1.5,"x\n\"q\"",null]}"#
    #expect(JSON.encode(try JSON.parse(text)) == text)
  }

  @Test func escapesControlCharactersAsFourHexDigits() {
    #expect(JSON.encode(.text("a\u{01}\u{1f}\u{7f}")) == #""a\u0001\u001f\#u{7f}""#)
  }

  @Test(arguments: [#"{"a" 1}"#, "[1,", "tru", #"{"a":1} x"#, ""])
  func refusesInvalidJSON(text: String) {
    #expect(throws: JSON.ParseError.self) { try JSON.parse(text) }
  }

  /// A number past Double's range would read as infinity, which JSON cannot write back.
  @Test(arguments: ["1e309", "-2e308", #"{"a": [1e999]}"#])
  func refusesNumbersPastDouble(text: String) {
    let error = #expect(throws: JSON.ParseError.self) { try JSON.parse(text) }
    #expect(error?.message.contains("is too large") == true)
  }

  /// A high surrogate followed by an escape that is no low one: each stands for itself.
  @Test func readsAHighSurrogateWithoutItsLowHalf() throws {
    #expect(try JSON.parse(#""\ud83d\ud0e0""#) == .text("\u{FFFD}\u{D0E0}"))
    #expect(try JSON.parse(#""\ud83d\u0041\ud83d\ude00""#) == .text("\u{FFFD}A😀"))
  }

  @Test func boundsNesting() {
    #expect(throws: JSON.ParseError.self) { try JSON.parse(String(repeating: "[", count: 10_000)) }
  }

  /// Closed, well-formed nesting at ten times the limit is refused by the limit, not by a crash; just
  /// under it parses.
  @Test func boundsWellFormedNestingAtTenTimesTheLimit() throws {
    func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
    #expect {
      try JSON.parse(nested(5_120))
    } throws: { error in
      (error as? JSON.ParseError)?.message.hasPrefix("JSON nested too deeply") == true
    }
    _ = try JSON.parse(nested(500))
  }
}

struct NamingTests {
  @Test(arguments: [
    ("addTags", "add-tags"), ("_maxResults", "max-results"), ("SaveBookmark", "save-bookmark"), ("GetURL", "get-url"),
    ("URLDetails", "url-details"), ("collectionId", "collection-id"), ("titleAZ", "title-az"),
    ("title-a-z", "title-a-z"),
    ("iso8601", "iso8601"),
  ])
  func kebabCase(name: String, key: String) {
    #expect(Naming.kebabCase(name) == key)
  }

  /// Names in ASCII are converted byte by byte (start-up names every intent): the same rules as for
  /// any other name.
  @Test func asciiNamesConvertAsCharactersDo() {
    let names = [
      "", "_", "__x", "a_", "a__b", "-a", "a-", "a b", "A", "AB", "ABc", "aBC", "a1B", "A1b", "URLDecode", "GetURL",
      "getURLComponent", "HTTPSURLs", "x2Y", "titleAZ", "title-a-z", "iso8601", "_maxResults", "ID", "iD", "Id",
      "a\r\nB", "GetDatesFromInput", "MakeCSV", "FormatJSON", "CopyToClipboard", "Base64", "URLEncode", "SHA256Hash",
    ]
    for name in names {
      #expect(Naming.convertASCII(name) == Naming.convertCharacters(name), "\(name)")
    }
    #expect(Naming.convertASCII("ÉtéAB") == nil)
  }

  @Test func intentIDs() {
    #expect(Naming.intentID(forTypeName: "SaveBookmarkIntent") == "save-bookmark")
    #expect(Naming.intentID(forTypeName: "GetURLIntent") == "get-url")
    // Only a whole trailing "Intent" goes, never the whole name; names that are not ASCII still convert.
    for (typeName, id) in [
      ("Intent", "intent"), ("IntentIntent", "intent"), ("Intents", "intents"), ("SaveBookmark", "save-bookmark"),
      ("_ShowIntent", "show"), ("ÉtéIntent", "été"), ("CaféIntent", "café"),
    ] {
      #expect(Naming.intentID(forTypeName: typeName) == id, "\(typeName)")
    }
    #expect(Naming.isKebabCase("add-tags"))
    #expect(!Naming.isKebabCase("addTags"))
    #expect(!Naming.isKebabCase("add--tags"))
    #expect(!Naming.isKebabCase("-add"))
  }
}

/// The static reading of the coercion table, which the checker uses, agrees with the table itself.
struct CompatibilityTests {
  static let book = sampleBooks[0].flowValue
  static let bookType = BookEntity.valueType
  static let sortType = BookSortOption.valueType

  /// Values of each type, the awkward ones included.
  static let samples: [(ValueType, [FlowValue])] = [
    (.text, ["", "42", "true", "https://example.com", "2026-11-21", "newest-first", "{\"a\": 1}", "lots"]),
    (.number, [0, 1, 2.5, -3]),
    (.integer, [0, 1, -3]),
    (.boolean, [true, false]),
    (.date, [.date(Date(timeIntervalSince1970: 0))]),
    (.url, [.url(URL(fileURLWithPath: "/tmp"))]),
    (.dictionary, [.dictionary(["a": 1])]),
    (.list(.text), [["a", "b"], []]),
    (bookType, [book]),
  ]

  static let targets: [ValueType] = [
    .text, .number, .integer, .boolean, .date, .url, .duration, .dictionary, .list(.text), .list(.number), .any,
    sortType,
  ]

  /// `always` means every sample converts; `never` that none does. Entities are left to their queries.
  @Test(arguments: targets)
  func agreesWithTheTable(target: ValueType) {
    for (type, values) in Self.samples {
      let converted = values.map { (try? Coercion.coerce($0, to: target)) != nil }
      switch Coercion.compatibility(of: type, to: target) {
      case .always: #expect(converted.allSatisfy { $0 }, "\(type) → \(target) is 'always'")
      case .never: #expect(!converted.contains(true), "\(type) → \(target) is 'never'")
      case .sometimes: break
      }
    }
  }

  @Test func entitiesMeetOnlyTheirOwnKind() {
    let other = ValueType.entity(EntityType(name: "Shelf") { [] })
    #expect(Coercion.compatibility(of: Self.bookType, to: Self.bookType) == .always)
    #expect(Coercion.compatibility(of: Self.bookType, to: other) == .never)
    #expect(Coercion.compatibility(of: .list(Self.bookType), to: .list(other)) == .never)
    // An id or a title is looked up by the entity's query.
    #expect(Coercion.compatibility(of: .text, to: other) == .sometimes)
    #expect(Coercion.compatibility(of: .integer, to: other) == .sometimes)
    #expect(Coercion.compatibility(of: .date, to: other) == .never)
    // A book has a link, so it gives a URL; an entity without one cannot.
    #expect(Coercion.compatibility(of: Self.bookType, to: .url) == .sometimes)
    #expect(Coercion.compatibility(of: other, to: .url) == .never)
    #expect(Coercion.compatibility(of: .list(.text), to: .number) == .never)
  }
}

/// A custom type that takes only even numbers, and says so to the checker only through its initialiser.
struct EvenNumber: IntentValueConvertible {
  var value: Int
  static var valueType: ValueType { .any }
  init(flowValue: FlowValue) throws(CoercionError) {
    guard case .number(let number) = flowValue, Int(exactly: number).map({ $0 % 2 == 0 }) == true else {
      throw CoercionError.expected("an even number", got: flowValue)
    }
    value = Int(number)
  }
  var flowValue: FlowValue { .number(Double(value)) }
}

struct PairsIntent: AppIntent {
  static let title: LocalizedStringResource = "Pairs"
  static let description = IntentDescription("Takes an even number.")
  @Parameter(title: "Count", primary: true) var count: EvenNumber
  @Parameter(title: "Counts") var counts: [EvenNumber]?
  static var parameterSummary: some ParameterSummary { Summary("Pairs \(\.$count)") { \.$counts } }
  func perform() async throws -> some IntentResult { .result() }
}

struct LiteralConversionTests {
  /// Literals are converted by the parameter type's own `init(flowValue:)`, not by its declared
  /// `valueType` (which says `any`).
  @Test func customTypesCheckLiteralsWithTheirOwnInitialiser() throws {
    let descriptor = IntentDescriptor(PairsIntent.self)
    let count = try #require(descriptor.parameter("count"))
    #expect(count.check(4) == nil)
    #expect(count.check(3)?.message == "expected an even number for 'count', got 3")
    #expect(count.check("lots")?.message == "expected an even number for 'count', got 'lots'")
    let counts = try #require(descriptor.parameter("counts"))
    #expect(counts.check([2, 4]) == nil)
    #expect(counts.check([2, 5])?.message == "'counts': item 2: expected an even number, got 5")
  }
}
