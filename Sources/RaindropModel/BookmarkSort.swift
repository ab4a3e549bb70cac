/// The eight `sort` values `GET /raindrops/{collectionId}` accepts (reference §5); raw values are the wire form.
public enum BookmarkSort: String, Sendable, Hashable, Codable, CaseIterable {
  /// Newest first: Raindrop's default.
  case newestFirst = "-created"
  case oldestFirst = "created"
  /// Relevance; only meaningful with a search, otherwise the same as ``newestFirst``.
  case relevance = "score"
  /// The manual order (descending `sort`, which a new bookmark sets to its id).
  case manual = "-sort"
  case titleAscending = "title"
  case titleDescending = "-title"
  case domainAscending = "domain"
  case domainDescending = "-domain"

  /// The default when a request names none.
  public static let `default`: BookmarkSort = .newestFirst
}
