import FlowDiagnostics

/// The problems found while reading a YAML file.
extension DiagnosticCode {
  /// libyaml rejected the file's syntax (tabs, indentation, unclosed quotes, …).
  package static let yamlSyntax: Self = "yaml-syntax"
  /// The bytes are not UTF-8, or hold control characters.
  package static let invalidEncoding: Self = "invalid-encoding"
  /// A key appears twice in one mapping.
  package static let duplicateKey: Self = "duplicate-key"
  /// A key is a list or a mapping.
  package static let nonTextKey: Self = "non-text-key"
  /// An alias names an anchor that was not defined before it.
  package static let unknownAnchor: Self = "unknown-anchor"
  /// An alias points into the node that contains it.
  package static let recursiveAlias: Self = "recursive-alias"
  /// Aliases expand past ``YAMLLimits/maxAliasExpansion``.
  package static let aliasExpansionLimit: Self = "alias-expansion-limit"
  /// Collections nest deeper than ``YAMLLimits/maxDepth``.
  package static let nestingTooDeep: Self = "nesting-too-deep"
  /// The file is larger than ``YAMLLimits/maxFileSize``.
  package static let fileTooLarge: Self = "file-too-large"
  /// One scalar is larger than ``YAMLLimits/maxScalarSize``.
  package static let scalarTooLarge: Self = "scalar-too-large"
  /// The file holds more than one YAML document.
  package static let multipleDocuments: Self = "multiple-documents"
  /// A YAML tag (`!!str`, `!custom`) was used.
  package static let unsupportedTag: Self = "unsupported-tag"
  /// A `<<` merge key's value is not a mapping or a list of mappings.
  package static let invalidMerge: Self = "invalid-merge"
}
