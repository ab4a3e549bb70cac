import FlowIntents

/// The seed's `ShortcutsProvider`: phrases that `flow do` matches, so `flow do save to raindrop URL`
/// saves a bookmark with no workflow file at all.
public struct RaindropShortcuts: AppShortcutsProvider {
  public static let applicationName = "Raindrop"

  public static var appShortcuts: [AppShortcut] {
    AppShortcut(
      intent: SaveBookmarkIntent(),
      phrases: [
        "Save bookmark in \(.applicationName)",
        "Save to \(.applicationName)",
        "Add bookmark to \(.applicationName)",
      ],
      shortTitle: "Save Bookmark",
      systemImageName: "bookmark.fill"
    )

    AppShortcut(
      intent: GetBookmarksIntent(),
      phrases: [
        "Search \(.applicationName)",
        "Search bookmarks in \(.applicationName)",
        "Find in \(.applicationName)",
        "Get bookmarks from \(.applicationName)",
      ],
      shortTitle: "Get Bookmarks",
      systemImageName: "magnifyingglass"
    )

    AppShortcut(
      intent: GetCollectionsIntent(),
      phrases: [
        "Show my \(.applicationName) collections",
        "List collections in \(.applicationName)",
      ],
      shortTitle: "Collections",
      systemImageName: "folder"
    )
  }
}
