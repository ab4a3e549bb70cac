import Foundation
import RaindropModel
import Testing

@Suite("Search syntax")
struct SearchQueryTests {
  @Test("parsing every operator")
  func parsing() {
    let query = SearchQuery(
      parsing:
        #"apple "exact phrase" -word #tag #"multi word" -#old match:OR type:video important:true ❤️ notag:true created:>2024-05 title:"a b" link:x.com file:true"#
    )
    #expect(query.matchAny)
    let kinds = query.terms.map(\.kind)
    #expect(kinds[0] == .word("apple"))
    #expect(kinds[1] == .phrase("exact phrase"))
    #expect(query.terms[2] == SearchQuery.Term(.word("word"), negated: true))
    #expect(kinds[3] == .tag("tag"))
    #expect(kinds[4] == .tag("multi word"))
    #expect(query.terms[5] == SearchQuery.Term(.tag("old"), negated: true))
    #expect(kinds[6] == .type(.video))
    #expect(kinds[7] == .important(true))
    #expect(kinds[8] == .important(true))
    #expect(kinds[9] == .noTags(true))
    guard case .created(let filter) = kinds[10] else {
      Issue.record("expected created:")
      return
    }
    #expect(filter.comparison == .after)
    #expect(kinds[11] == .field(.title, "a b"))
    #expect(kinds[12] == .field(.link, "x.com"))
    #expect(kinds[13] == .unsupported("file:true"))
  }

  @Test("words that only look like operators stay words")
  func notOperators() {
    #expect(SearchQuery(parsing: "https://swift.org").terms.map(\.kind) == [.word("https://swift.org")])
    #expect(SearchQuery(parsing: "-").terms.map(\.kind) == [.word("-")])
    #expect(SearchQuery(parsing: "   ").isEmpty)
  }

  @Test(
    "date filters: a day, a month, a year; on, before, after",
    arguments: [
      ("2024-03-02", Date.utcDay(2024, 3, 2), true),
      ("2024-03", Date.utcDay(2024, 3, 31), true),
      ("2024", Date.utcDay(2024, 12, 31), true),
      ("2024", Date.utcDay(2025, 1, 1), false),
      ("<2024-03", Date.utcDay(2024, 2, 29), true),
      ("<2024-03", Date.utcDay(2024, 3, 1), false),
      (">2024-03", Date.utcDay(2024, 4, 1), true),
      (">2024-03", Date.utcDay(2024, 3, 31), false),
    ])
  func dateFilters(text: String, date: Date, expected: Bool) throws {
    let filter = try #require(SearchQuery.DateFilter(text))
    #expect(filter.matches(date) == expected)
  }

  @Test("invalid dates are not filters")
  func invalidDates() {
    #expect(SearchQuery.DateFilter("2024-13") == nil)
    #expect(SearchQuery.DateFilter("yesterday") == nil)
  }
}

@Suite("Links and tags")
struct LinkAndTagTests {
  @Test(
    "the domain drops www. and is lower-case",
    arguments: [
      ("https://www.Google.com/", "google.com"), ("http://news.ycombinator.com/item?id=1", "news.ycombinator.com"),
      ("not a url", ""), ("https://wwwexample.com", "wwwexample.com"),
    ])
  func domain(link: String, expected: String) {
    #expect(LinkNormalizer.domain(of: link) == expected)
  }

  @Test("links compare without scheme, www, trailing slash or fragment; the query counts")
  func comparable() {
    #expect(LinkNormalizer.comparable("https://www.Swift.org/blog/#top") == "swift.org/blog")
    #expect(LinkNormalizer.comparable("http://swift.org/blog") == "swift.org/blog")
    #expect(
      LinkNormalizer.comparable("https://swift.org/blog?page=2") != LinkNormalizer.comparable("https://swift.org/blog"))
  }

  @Test("tags are added and removed ignoring case, keeping the first spelling")
  func tagEditing() {
    #expect(TagEditor.edit(["Swift", "cli"], adding: ["swift", "New", " "], removing: ["CLI"]) == ["Swift", "New"])
    #expect(TagEditor.edit(["a"], adding: ["b"], clearing: true) == ["b"])
  }

  @Test("the diff of two bookmarks holds only what changed")
  func diff() {
    let original = Bookmark(id: 1, link: "https://a", title: "A", tags: ["x"], created: Date(timeIntervalSince1970: 0))
    var modified = original
    modified.note = "n"
    #expect(BookmarkChanges(from: original, to: modified) == BookmarkChanges(note: "n"))
    #expect(BookmarkChanges(from: original, to: original).isEmpty)
  }
}

extension Date {
  static func utcDay(_ year: Int, _ month: Int, _ day: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 10))
      ?? Date(timeIntervalSince1970: 0)
  }
}
