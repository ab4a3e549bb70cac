import Foundation
import RaindropModel
import Testing

@testable import RaindropLocal

/// Listing page after page (`max-results: all`): each bookmark once, in one order, with Raindrop's paging
/// semantics when something is written between two pages, and SQLite work that grows with the number of
/// bookmarks rather than with its square (issue 17).
@Suite("LocalBackend listing")
struct ListingTests {
  /// A store in a new folder with `count` bookmarks whose creation times, titles and domains come in runs
  /// of `run` equal ones, so that pages of 50 end inside runs of equal sort keys.
  static func store(_ count: Int, run: Int = 7) async throws -> (LocalBackend, URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-listing-\(UUID().uuidString)")
    let store = try LocalBackend(directory: directory)
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    for index in 0..<count {
      let group = index / run
      _ = try await store.createBookmark(
        NewBookmark(
          link: "https://site\(group % 5).example/\(index)", title: "Run \(group % 9)", tags: ["t\(index % 2)"],
          created: start.addingTimeInterval(Double(group)), parse: false))
    }
    return (store, directory)
  }

  @Test("every page in turn gives each bookmark exactly once, in the order of one sorted list")
  func pagingAcrossEqualSortKeys() async throws {
    let (store, directory) = try await Self.store(130)
    defer { try? FileManager.default.removeItem(at: directory) }
    for search in [nil, "#t1"] {
      for sort in BookmarkSort.allCases {
        let query = BookmarkListQuery(search: search, sort: sort)
        let all = try await store.allBookmarks(query)
        let expected = search == nil ? 130 : 65
        #expect(all.count == expected, "\(sort) \(search ?? "")")
        #expect(Set(all.map(\.id)).count == expected, "\(sort) \(search ?? ""): a bookmark listed twice")
        let reference = LocalBackend.sorted(all, by: sort, search: SearchQuery(parsing: search ?? ""))
        #expect(all.map(\.id) == reference.map(\.id), "\(sort) \(search ?? "")")
      }
    }
  }

  /// Raindrop pages by offset: a bookmark saved between two pages pushes the last one of the first page
  /// onto the second. The store keeps that, whether this connection wrote or another one (another process).
  @Test("a write between two pages shifts the next one, as Raindrop's pages do", arguments: [false, true])
  func writeBetweenPages(otherConnection: Bool) async throws {
    let (store, directory) = try await Self.store(120)
    defer { try? FileManager.default.removeItem(at: directory) }
    let writer = otherConnection ? try LocalBackend(directory: directory) : store
    for search in [nil, "#t0"] {
      var query = BookmarkListQuery(search: search, sort: .newestFirst, perPage: 50)
      let first = try await store.bookmarks(query)
      _ = try await writer.createBookmark(
        NewBookmark(link: "https://new.example/\(search ?? "")", tags: ["t0"], created: Date(), parse: false))
      query.page = 1
      let second = try await store.bookmarks(query)
      #expect(second.items.first?.id == first.items.last?.id, "\(search ?? "")")
      #expect(second.count == first.count + 1)
      // Asked again, or out of turn, a page is the same.
      #expect(try await store.bookmarks(query) == second)
      query.page = 0
      #expect(try await store.bookmarks(query).items.dropFirst().first == first.items.first)
    }
  }

  /// Every page of N bookmarks costs about what the first does: SQLite's work (counted in its virtual
  /// machine's steps, not timed) doubles when the bookmarks double. Counting past all earlier rows on
  /// each page made it four times as much.
  @Test("listing every page costs SQLite work in proportion to the bookmarks")
  func listingIsLinear() async throws {
    var work: [Int64] = []
    for count in [500, 1000] {
      let (store, directory) = try await Self.store(count)
      defer { try? FileManager.default.removeItem(at: directory) }
      let before = await store.sqliteSteps
      #expect(try await store.allBookmarks(BookmarkListQuery()).count == count)
      work.append(await store.sqliteSteps - before)
    }
    #expect(Double(work[1]) < 2.3 * Double(work[0]), "\(work)")
  }
}
