import FlowIntents

/// The Raindrop.io actions, `raindrop.`-prefixed; sorted by id (CatalogValidator checks).
public enum RaindropCatalog: IntentCatalog {
  public static let namespace: String? = "raindrop"
  public static let title = "Raindrop.io"
  public static let intents: [any AppIntent.Type] = [
    CreateCollectionIntent.self,
    DeleteBookmarkIntent.self,
    GetBookmarksIntent.self,
    GetCollectionsIntent.self,
    SaveBookmarkIntent.self,
    UpdateBookmarkIntent.self,
    UpdateBookmarksIntent.self,
  ]
  public static var shortcuts: (any AppShortcutsProvider.Type)? { RaindropShortcuts.self }
}
