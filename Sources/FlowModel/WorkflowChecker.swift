import FlowDiagnostics
import FlowYAML

/// Checks a workflow file as far as its top level (SPEC §1, §4): that it is YAML, that its root is a
/// mapping, and that its keys are known, present when required, and of the right kind.
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
    var diagnostics = Diagnostics()
    guard let root = document.root, root.scalar?.resolved != .null else {
      diagnostics.append(
        Diagnostic(
          .error, .emptyWorkflow, "the workflow file is empty",
          at: SourceSpan(file: document.file, at: SourceLocation(line: 1, column: 1))
        ).help("a workflow starts with 'flow: \(WorkflowFormat.version)' and lists its 'steps'"))
      return diagnostics
    }
    guard let mapping = root.mapping else {
      diagnostics.append(
        Diagnostic(.error, .wrongKind, "expected a mapping at the top level, found \(root.kindName)", at: root.span)
          .help("a workflow is a mapping of keys such as 'flow', 'name' and 'steps'"))
      return diagnostics
    }
    let known = WorkflowFormat.keys.map(\.name)
    for entry in mapping.entries {
      guard let key = WorkflowFormat.keysByName[entry.key.value] else {
        diagnostics.append(
          Diagnostic(.error, .unknownKey, "unknown key '\(entry.key.value)'", at: entry.key.span)
            .help(Suggestion.help(for: entry.key.value, among: known, listUpTo: known.count)))
        continue
      }
      if let problem = check(entry.value, against: key) { diagnostics.append(problem) }
    }
    for key in WorkflowFormat.keys where key.isRequired && mapping[key.name] == nil {
      diagnostics.append(
        Diagnostic(
          .error, .missingKey, "missing required key '\(key.name)'",
          at: SourceSpan(file: document.file, at: mapping.span.start)
        ).help(key.name == "flow" ? "add 'flow: \(WorkflowFormat.version)' as the first line" : "add '\(key.name):'"))
    }
    return diagnostics
  }

  /// The problem with one top-level value, if any.
  private static func check(_ node: YAMLNode, against key: WorkflowFormat.Key) -> Diagnostic? {
    func wrongKind(_ expected: String) -> Diagnostic {
      Diagnostic(.error, .wrongKind, "expected \(expected) for '\(key.name)', found \(node.kindName)", at: node.span)
    }
    switch key.shape {
    case .version:
      guard case .scalar(let scalar) = node, case .int(let version) = scalar.resolved else {
        return wrongKind("the format version \(WorkflowFormat.version)")
      }
      guard version == WorkflowFormat.version else {
        return Diagnostic(
          .error, .unsupportedVersion, "unsupported format version \(version)", at: node.span
        ).help("this flow reads version \(WorkflowFormat.version) files; a newer flow may read this one")
      }
    case .text:
      guard let scalar = node.scalar, scalar.resolved != .null else { return wrongKind("text") }
    case .choice(let choices):
      guard let scalar = node.scalar, scalar.resolved != .null else { return wrongKind("text") }
      guard choices.contains(scalar.value) else {
        return Diagnostic(.error, .unknownValue, "unknown \(key.name) '\(scalar.value)'", at: node.span)
          .help(Suggestion.help(for: scalar.value, among: choices, listUpTo: 15))
      }
    case .mapping:
      guard node.mapping != nil else { return wrongKind("a mapping") }
    case .sequence:
      guard node.sequence != nil else { return wrongKind("a sequence") }
    case .textList:
      guard let sequence = node.sequence else { return wrongKind("a sequence of names") }
      for item in sequence.items where item.scalar == nil || item.scalar?.resolved == .null {
        return Diagnostic(
          .error, .wrongKind, "expected a name in '\(key.name)', found \(item.kindName)", at: item.span)
      }
    }
    return nil
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
  /// A required key is absent.
  public static let missingKey: Self = "missing-key"
  /// A value outside a fixed set of names.
  public static let unknownValue: Self = "unknown-value"
  /// `flow:` names a format version this build cannot read.
  public static let unsupportedVersion: Self = "unsupported-version"
}
