import FlowIntents

/// What copy-file and move-file do when their destination exists: ``IfExists`` without `append`, which
/// only a write of text means, so that `flow validate` refuses it at its column and `flow actions` does
/// not offer it.
public enum TransferIfExists: String, AppEnum {
  case fail, replace
  case keepBoth = "keep-both"

  public static let typeDisplayRepresentation: TypeDisplayRepresentation = "If Exists"
  public static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .fail: "Fail (stop the run)", .replace: "Replace it", .keepBoth: "Keep both (number the new one)",
  ]

  /// The same choice, as the file layer takes it.
  public var ifExists: IfExists {
    switch self {
    case .fail: .fail
    case .replace: .replace
    case .keepBoth: .keepBoth
    }
  }
}
