import FlowDiagnostics

/// Problems of sharing: export, the secrets check, signatures, keys and import (issue 9).
extension DiagnosticCode {
  /// A literal that looks like a credential, refused by `flow export` and `flow validate --lint-secrets`.
  public static let possibleSecret: Self = "possible-secret"
  /// `flow export` cannot build the shared file: two workflows embedded under one name, a source it
  /// cannot edit.
  public static let exportConflict: Self = "export-conflict"
  /// A signature block that does not read.
  public static let malformedSignature: Self = "malformed-signature"
  /// A file whose bytes were changed after it was signed: never imported.
  public static let tamperedFile: Self = "tampered-file"
  /// `flow import` was not confirmed: declined, or nobody could answer and `--yes` was not given.
  public static let importRefused: Self = "import-refused"
  /// `flow import` cannot read its source: a missing file, a URL that answers with an error, a file too large.
  public static let importSource: Self = "import-source"
  /// An answer to an import question that does not fit the input's type, or names no question.
  public static let invalidAnswer: Self = "invalid-answer"
  /// A key that cannot be made, read, trusted or untrusted.
  public static let keyProblem: Self = "key-problem"
}
