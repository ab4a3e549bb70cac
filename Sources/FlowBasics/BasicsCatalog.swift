import FlowIntents

/// The Shortcuts basics (SPEC §1): the built-in actions every workflow can use, ids without a namespace.
///
/// One line per intent, sorted by id; `CatalogValidator` checks the order and a test checks that every
/// file in `Intents/` is listed.
public enum BasicsCatalog: IntentCatalog {
  public static let namespace: String? = nil
  public static let title = "Basics"
  public static let intents: [any AppIntent.Type] = [
    AdjustDateIntent.self,
    AskIntent.self,
    Base64Intent.self,
    CalculateIntent.self,
    ChangeCaseIntent.self,
    ChooseFromListIntent.self,
    CombineTextIntent.self,
    CommentIntent.self,
    ConfirmIntent.self,
    CountIntent.self,
    CurrentDateIntent.self,
    DictionaryIntent.self,
    FilterIntent.self,
    FormatDateIntent.self,
    FormatJSONIntent.self,
    FormatNumberIntent.self,
    GetDatesFromInputIntent.self,
    GetItemIntent.self,
    GetURLIntent.self,
    GetURLComponentIntent.self,
    GetValueIntent.self,
    HashIntent.self,
    ListIntent.self,
    MakeCSVIntent.self,
    MatchTextIntent.self,
    NumberIntent.self,
    OpenURLIntent.self,
    ParseCSVIntent.self,
    ParseJSONIntent.self,
    RandomNumberIntent.self,
    ReplaceTextIntent.self,
    RoundNumberIntent.self,
    RunShellIntent.self,
    SetValueIntent.self,
    ShowIntent.self,
    SortIntent.self,
    SplitTextIntent.self,
    TextIntent.self,
    TimeBetweenIntent.self,
    TrimTextIntent.self,
    UniqueIntent.self,
    URLIntent.self,
    URLDecodeIntent.self,
    URLEncodeIntent.self,
    WaitIntent.self,
  ]
}
