import FlowDiagnostics
import FlowYAML

/// Checks a workflow file as far as it can without the action catalogue (SPEC §1, §4): that it is YAML,
/// that its keys are known, present when required and of the right kind, and that its steps, references
/// and conditions are well formed.
///
/// Every problem is collected; nothing stops at the first.
public enum WorkflowChecker {
  /// Loads `file` and checks it.
  public static func check(_ file: SourceFile) -> Diagnostics {
    let document = YAMLDocument.load(file)
    var diagnostics = document.diagnostics
    // A YAML error leaves no tree, or a partial one, to check.
    guard !diagnostics.hasErrors else { return diagnostics }
    diagnostics.append(contentsOf: check(document))
    return diagnostics
  }

  /// Checks a loaded document.
  public static func check(_ document: YAMLDocument) -> Diagnostics {
    WorkflowDecoder.decode(document).diagnostics
  }
}

/// The problems found while checking a workflow's structure.
extension DiagnosticCode {
  /// The file holds no document.
  public static let emptyWorkflow: Self = "empty-workflow"
  /// A node is a different kind (mapping, sequence, scalar type) than its place requires.
  public static let wrongKind: Self = "wrong-kind"
  /// A key that the format does not define.
  public static let unknownKey: Self = "unknown-key"
  /// A workflow declares MCP servers (`servers:`, `mcpServers:`): only config.yml may.
  public static let serverDeclaration: Self = "server-declaration"
  /// A required key is absent.
  public static let missingKey: Self = "missing-key"
  /// A value outside a fixed set of names.
  public static let unknownValue: Self = "unknown-value"
  /// `flow:` names a format version this build cannot read.
  public static let unsupportedVersion: Self = "unsupported-version"
}
