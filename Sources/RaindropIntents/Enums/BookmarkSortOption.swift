import FlowIntents
import RaindropModel

/// How `get-bookmarks` orders its results when it is not searching (the seed's `BookmarkSortOption`).
public enum BookmarkSortOption: String, AppEnum {
  case newestFirst = "newest-first"
  case oldestFirst = "oldest-first"
  case titleAZ = "title-a-z"
  case titleZA = "title-z-a"

  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sort Order"
  public static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .newestFirst: "Newest First",
    .oldestFirst: "Oldest First",
    .titleAZ: "Title (A to Z)",
    .titleZA: "Title (Z to A)",
  ]

  var toSortBy: BookmarkSort {
    switch self {
    case .newestFirst: .newestFirst
    case .oldestFirst: .oldestFirst
    case .titleAZ: .titleAscending
    case .titleZA: .titleDescending
    }
  }
}
