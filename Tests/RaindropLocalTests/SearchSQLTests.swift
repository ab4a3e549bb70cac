import Foundation
import RaindropModel
import Testing

@testable import RaindropLocal

/// Searches run in SQL over the store's folded columns (issue 30): they find what ``SearchQuery/matches(_:)``
/// finds, ignoring case and accents as Raindrop does, and order as the in-memory reference does.
@Suite("LocalBackend search in SQL")
struct SearchSQLTests {
  static func directory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("flow-search-\(UUID().uuidString)")
  }

  /// Bookmarks whose fields mix cases, accents and scripts, over five collections' worth of variety.
  static func store() async throws -> (LocalBackend, URL, [Bookmark]) {
    let directory = directory()
    let store = try LocalBackend(directory: directory)
    let titles = [
      "Café de Flore", "CAFE MENU", "École Normale", "ecole du soir", "Straße und Weg", "Über alles", "naïve résumé",
      "Swift on Linux", "東京 カフェ", "Ωmega ÇA", "Plain title", "Ünïcödé",
    ]
    let tagSets: [[String]] = [["Café"], ["swift", "Linux"], [], ["école", "paris"], ["ÜBER"], ["multi word"]]
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    var saved: [Bookmark] = []
    for index in 0..<60 {
      let bookmark = try await store.createBookmark(
        NewBookmark(
          link: "https://site\(index % 4).example/\(index % 3 == 0 ? "café" : "page")/\(index)",
          title: titles[index % titles.count],
          excerpt: index % 5 == 0 ? "Notes about a CAFÉ and an École" : "nothing",
          note: index % 7 == 0 ? "résumé attached" : "",
          tags: tagSets[index % tagSets.count], important: index % 6 == 0,
          type: index % 9 == 0 ? .video : nil,
          created: start.addingTimeInterval(Double(index / 2) * 86_400), parse: false))
      saved.append(bookmark)
    }
    return (store, directory, saved)
  }

  static let searches = [
    "cafe", "CAFÉ", "café", "école", "ÉCOLE", "ecole", "uber", "ÜBER", "resume", "naive", "über alles", "\"de flore\"",
    "-cafe", "cafe -ecole", "cafe ecole match:OR", "#cafe", "#Café", "#ÉCOLE", "#\"multi word\"", "-#swift",
    "title:cafe", "title:\"cafe menu\"", "excerpt:école", "note:resume", "link:café", "domain:site1", "type:video",
    "important:true", "❤️ cafe", "notag:true", "notag:false", "created:2026-01", "created:<2026-01-10",
    "created:>2026-01-20 cafe", "lastUpdate:>2020", "file:true", "file:true cafe match:OR", "カフェ", "ωmega", "ça",
    "unicode", "ü", "e",
  ]

  @Test("every search finds what SearchQuery.matches finds, in every order, page after page")
  func sqlAgreesWithTheReference() async throws {
    let (store, directory, saved) = try await Self.store()
    defer { try? FileManager.default.removeItem(at: directory) }
    for search in Self.searches {
      let query = SearchQuery(parsing: search)
      let expected = saved.filter(query.matches)
      for sort in BookmarkSort.allCases {
        let listed = try await store.allBookmarks(BookmarkListQuery(search: search, sort: sort, perPage: 7))
        let reference = LocalBackend.sorted(expected, by: sort, search: query)
        #expect(listed.map(\.id) == reference.map(\.id), "\(search) \(sort)")
      }
      let page = try await store.bookmarks(BookmarkListQuery(search: search))
      #expect(page.count == expected.count, "\(search)")
    }
  }

  @Test(
    "case and accents are ignored, as Raindrop ignores them",
    arguments: [
      ("cafe", "Café de Flore"), ("CAFE", "Café de Flore"), ("café", "CAFE MENU"), ("école", "ÉCOLE"),
      ("ÉCOLE", "école"), ("ecole", "École Normale"), ("uber", "Über alles"), ("RESUME", "naïve résumé"),
    ])
  func foldedMatches(search: String, title: String) async throws {
    let directory = Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LocalBackend(directory: directory)
    let saved = try await store.createBookmark(NewBookmark(link: "https://a.example", title: title, parse: false))
    _ = try await store.createBookmark(NewBookmark(link: "https://b.example", title: "Something else", parse: false))
    #expect(try await store.bookmarks(BookmarkListQuery(search: search)).items.map(\.id) == [saved.id])
  }

  @Test("a tag is found whatever its case and accents; edits keep the folded tags in step")
  func tagsFoldAndFollowEdits() async throws {
    let directory = Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LocalBackend(directory: directory)
    let saved = try await store.createBookmark(
      NewBookmark(link: "https://a.example", tags: ["Café"], parse: false))
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#cafe")).count == 1)
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#caf")).count == 0)
    _ = try await store.updateBookmarks(ids: [saved.id], in: 0, BulkChange(addTags: ["ÉCOLE"], removeTags: ["Café"]))
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#cafe")).count == 0)
    #expect(try await store.bookmarks(BookmarkListQuery(search: "#école")).count == 1)
    _ = try await store.updateBookmark(id: saved.id, BookmarkChanges(title: "Über"))
    #expect(try await store.bookmarks(BookmarkListQuery(search: "title:uber")).count == 1)
  }

  /// Folding beyond ASCII (ICU's, since schema version 4) agrees with Foundation's `folding(options:)`,
  /// which it replaced, on every letter of the Latin, Greek and Cyrillic blocks and on words built of them.
  @Test("folding agrees with Foundation's on Latin, Greek and Cyrillic letters")
  func foldingAgreesWithFoundation() {
    let scalars = (0xC0...0x24F).compactMap(Unicode.Scalar.init) + (0x370...0x4FF).compactMap(Unicode.Scalar.init)
    let texts = scalars.map { String($0) } + ["Ærøskøbing", "ΆΈΉΊΌΎΏ όλα", "Ёжик в тумане", "Ŀlançà", "Straße"]
    var differing: [String] = []
    for text in texts
    where SearchFolding.fold(text) != text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) {
      differing.append(text)
    }
    #expect(differing.isEmpty, "\(differing.map { Array($0.unicodeScalars) })")
  }

  /// Text SQLite compares byte for byte, and Swift too: no word is found across two tags, and an accent
  /// alone folds to nothing, which occurs everywhere (as an empty `instr` needle does).
  @Test("folding: ASCII lower-cased, accents and case folded, bytes compared")
  func folding() {
    #expect(SearchFolding.fold("Hello World") == "hello world")
    #expect(SearchFolding.fold("already lower") == "already lower")
    #expect(SearchFolding.fold("ÉCOLE") == SearchFolding.fold("école"))
    #expect(SearchFolding.fold("Café") == "cafe")
    #expect(SearchFolding.tags([]) == "")
    #expect(SearchFolding.tags(["A", "b"]) == "\u{1F}a\u{1F}b\u{1F}")
    #expect(SearchFolding.contains("abcabd", "abd"))
    #expect(!SearchFolding.contains("abcab", "abd"))
    #expect(!SearchFolding.contains("ab", "abc"))
    #expect(SearchFolding.contains("anything", ""))
    #expect(!SearchFolding.contains(SearchFolding.tags(["ab", "cd"]), "bc"))
  }
}
