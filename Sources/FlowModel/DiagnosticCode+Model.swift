import FlowDiagnostics

/// The problems found while decoding a workflow's steps, references and conditions.
extension DiagnosticCode {
  /// A `${…}` reference that is not closed or not of the form `name.property[index]`.
  public static let malformedReference: Self = "malformed-reference"
  /// A condition of `if:` or `when:` that does not follow the grammar.
  public static let malformedCondition: Self = "malformed-condition"
}

extension DiagnosticCode {
  /// A key that belongs to another kind of step (`then` without `if`).
  public static let misplacedKey: Self = "misplaced-key"
  /// A step mapping with no action or block keyword.
  public static let missingAction: Self = "missing-action"
  /// A step mapping with more than one action key.
  public static let multipleActions: Self = "multiple-actions"
  /// Two steps use the same `as:` name.
  public static let duplicateName: Self = "duplicate-name"
  /// An `as:`, `set:` or action name that is not a valid name, or reuses a built-in.
  public static let invalidName: Self = "invalid-name"
  /// A number outside its place's range: a parameter's, or the longest duration.
  public static let outOfRange: Self = "out-of-range"
  /// A `menu` without options.
  public static let emptyMenu: Self = "empty-menu"
}
