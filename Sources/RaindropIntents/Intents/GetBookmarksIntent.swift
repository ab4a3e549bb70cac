import FlowIntents
import RaindropModel

/// Gets or searches bookmarks: with search text, the most relevant first; otherwise in the chosen order.
struct GetBookmarksIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Bookmarks"
  static let description = IntentDescription("Get or search bookmarks in Raindrop.io.")
  static let networkAccess = NetworkAccess.hosts(["api.raindrop.io"])
  static let openAppWhenRun = false

  /// All bookmarks (outside Trash) when not given.
  @Parameter(title: "Collection")
  var collection: CollectionEntity?

  @Parameter(
    title: "Search Text", description: "Raindrop's search syntax: words, \"a phrase\", -word, #tag, …", primary: true)
  var searchText: String?

  @Parameter(title: "Sort By", default: .newestFirst)
  var sortBy: BookmarkSortOption

  /// The seed's 1…50 was one page of the API; pages are now followed, so any number, or `all`.
  @Parameter(
    title: "Maximum Results", description: "How many bookmarks at most: a number from 1, or 'all'.",
    default: ResultLimit.count(25))
  var maxResults: ResultLimit

  @Dependency var service: IntentService

  static var parameterSummary: some ParameterSummary {
    Summary("Get bookmarks") {
      \.$collection
      \.$searchText
      \.$sortBy
      \.$maxResults
    }
  }

  func perform() async throws -> some ReturnsValue<[BookmarkEntity]> {
    let collectionId = collection?.id ?? SystemCollection.all.rawValue
    let query: BookmarkListQuery
    if let searchText, !searchText.isEmpty {
      query = BookmarkListQuery(collectionId: collectionId, search: searchText, sort: .relevance)
    } else {
      query = BookmarkListQuery(collectionId: collectionId, sort: sortBy.toSortBy)
    }
    let limit = maxResults.limit
    let bookmarks = try await service.perform { backend throws(RaindropError) in
      // One page when it holds them all (the seed's single request); otherwise pages of 50 from 0,
      // stopping at a short page.
      if let limit, limit <= BookmarkListQuery.defaultPerPage {
        var page = query
        page.perPage = limit
        return try await backend.bookmarks(page).items
      }
      return try await backend.allBookmarks(query, limit: limit)
    }
    return .result(value: bookmarks.map(BookmarkEntity.init(from:)))
  }
}

/// How many results: a count, or `all`.
public enum ResultLimit: IntentValueConvertible, Hashable {
  case count(Int)
  case all

  /// Text or a number, so that both `25` and `all` pass the checker; the value is checked here.
  public static var valueType: ValueType { .any }

  public init(flowValue: FlowValue) throws(CoercionError) {
    if case .text(let text) = flowValue, text.lowercased() == "all" {
      self = .all
      return
    }
    guard let number = try? Int(flowValue: flowValue), number >= 1 else {
      throw CoercionError.expected(
        "a number from 1 or 'all'", got: flowValue, help: "write how many, like 25, or 'all' for every one")
    }
    self = .count(number)
  }

  public var flowValue: FlowValue {
    switch self {
    case .count(let count): .number(Double(count))
    case .all: .text("all")
    }
  }

  var limit: Int? {
    if case .count(let count) = self { return count }
    return nil
  }
}
