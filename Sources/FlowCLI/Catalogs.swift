import FlowBasics
import FlowIntents
import RaindropIntents

/// The action catalogues this build of flow ships, in the order `flow actions` lists them. Public for the
/// tests that must cover every shipped action (the effect of each, issue 16), and for the fuzzing harness
/// (`FlowFuzzing`), which checks files against exactly these.
public enum Catalogs {
  public static var all: [any IntentCatalog.Type] { [BasicsCatalog.self, RaindropCatalog.self] }

  public static let registry = IntentRegistry(catalogs: all)

  /// Every app shortcut phrase, lower-cased, with its short title and the full id of its intent: what
  /// `flow do` matches.
  static var phrases: [(phrase: String, shortTitle: String, intentID: String)] {
    all.flatMap { catalog in
      (catalog.shortcuts?.phrases ?? []).map { entry in
        let shortID = entry.shortcut.intentType.identifier
        return (entry.phrase, entry.shortcut.shortTitle, catalog.namespace.map { "\($0).\(shortID)" } ?? shortID)
      }
    }
  }
}
