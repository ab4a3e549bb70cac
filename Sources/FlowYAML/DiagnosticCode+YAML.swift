import FlowDiagnostics

/// The problems found while reading a YAML file.
extension DiagnosticCode {
  /// libyaml rejected the file's syntax (tabs, indentation, unclosed quotes, …).
  public static let yamlSyntax: Self = "yaml-syntax"
  /// The bytes are not UTF-8, or hold control characters.
  public static let invalidEncoding: Self = "invalid-encoding"
  /// A key appears twice in one mapping.
  public static let duplicateKey: Self = "duplicate-key"
  /// A key is a list or a mapping.
  public static let nonTextKey: Self = "non-text-key"
  /// An alias names an anchor that was not defined before it.
  public static let unknownAnchor: Self = "unknown-anchor"
  /// An alias points into the node that contains it.
  public static let recursiveAlias: Self = "recursive-alias"
  /// Aliases expand past ``YAMLLimits/maxAliasExpansion``.
  public static let aliasExpansionLimit: Self = "alias-expansion-limit"
  /// Collections nest deeper than ``YAMLLimits/maxDepth``.
  public static let nestingTooDeep: Self = "nesting-too-deep"
  /// The file is larger than ``YAMLLimits/maxFileSize``.
  public static let fileTooLarge: Self = "file-too-large"
  /// One scalar is larger than ``YAMLLimits/maxScalarSize``.
  public static let scalarTooLarge: Self = "scalar-too-large"
  /// The file holds more than one YAML document.
  public static let multipleDocuments: Self = "multiple-documents"
  /// A YAML tag (`!!str`, `!custom`) was used.
  public static let unsupportedTag: Self = "unsupported-tag"
  /// A `<<` merge key's value is not a mapping or a list of mappings.
  public static let invalidMerge: Self = "invalid-merge"
}
