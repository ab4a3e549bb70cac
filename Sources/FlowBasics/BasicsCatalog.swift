import FlowIntents

/// The Shortcuts basics (SPEC §1): the built-in actions every workflow can use, ids without a namespace.
///
/// One line per intent, sorted by id; `CatalogValidator` checks the order and a test checks that every
/// file in `Intents/` is listed.
public enum BasicsCatalog: IntentCatalog {
  public static let namespace: String? = nil
  public static let title = "Basics"
  public static let intents: [any AppIntent.Type] = [
    AskIntent.self,
    CalculateIntent.self,
    ChooseFromListIntent.self,
    CombineTextIntent.self,
    CommentIntent.self,
    ConfirmIntent.self,
    CountIntent.self,
    DictionaryIntent.self,
    FilterIntent.self,
    FormatDateIntent.self,
    GetItemIntent.self,
    GetURLIntent.self,
    GetValueIntent.self,
    ListIntent.self,
    MatchTextIntent.self,
    NumberIntent.self,
    OpenURLIntent.self,
    ReplaceTextIntent.self,
    ShowIntent.self,
    SortIntent.self,
    SplitTextIntent.self,
    TextIntent.self,
    WaitIntent.self,
  ]
}
