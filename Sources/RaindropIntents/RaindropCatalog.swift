import FlowIntents

/// The Raindrop.io actions, `raindrop.`-prefixed; sorted by id (CatalogValidator checks).
package enum RaindropCatalog: IntentCatalog {
  package static let namespace: String? = "raindrop"
  package static let title = "Raindrop.io"
  package static let intents: [any AppIntent.Type] = [
    CreateCollectionIntent.self,
    DeleteBookmarkIntent.self,
    GetBookmarksIntent.self,
    GetCollectionsIntent.self,
    SaveBookmarkIntent.self,
    UpdateBookmarkIntent.self,
    UpdateBookmarksIntent.self,
  ]
  package static var shortcuts: (any AppShortcutsProvider.Type)? { RaindropShortcuts.self }
}
