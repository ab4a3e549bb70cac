import FlowBasics
import FlowIntents

/// The action catalogues this build of flow ships, in the order `flow actions` lists them.
enum Catalogs {
  static let registry = IntentRegistry(catalogs: [BasicsCatalog.self])
}
