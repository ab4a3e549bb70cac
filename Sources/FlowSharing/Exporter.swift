import FlowDiagnostics
import FlowModel
import FlowYAML

/// Builds the one self-contained file `flow export` writes (issue 9): the workflow's own text as written
/// (comments and formatting kept), then a `shared:` block, then the workflows it runs embedded under
/// `workflows:`, each by the reference its `run-workflow` uses.
///
/// Defaults of inputs marked `secret: true` are dropped, and a `shared:`/`workflows:` section or a
/// signature block already in a source (a re-export of an imported file) is replaced, not repeated.
/// The caller checks the result as a whole before writing it.
public enum Exporter {
  /// The `shared:` block's facts.
  public struct Shared: Sendable {
    /// `2026-11-23T09:15:00Z`.
    public var created: String
    public var modified: String
    public var actions: Int
    public var flowVersion: String

    public init(created: String, modified: String, actions: Int, flowVersion: String) {
      self.created = created
      self.modified = modified
      self.actions = actions
      self.flowVersion = flowVersion
    }
  }

  /// A workflow and the workflows it runs, in the order they are met, each with its reference.
  public struct Tree: Sendable {
    public var root: Workflow
    public var children: [(reference: String, workflow: Workflow)]

    public init(root: Workflow, children: [(reference: String, workflow: Workflow)]) {
      self.root = root
      self.children = children
    }
  }

  /// The exported bytes, or the problems that stop the export.
  public static func export(_ tree: Tree, shared: Shared) -> Result<[UInt8], DiagnosticError> {
    var problems = Diagnostics()
    var seen: [String: String] = [:]
    var embedded: [(String, [UInt8])] = []
    for (reference, workflow) in tree.children {
      if let identity = seen[reference] {
        if identity != workflow.identity {
          problems.append(
            Diagnostic(
              .error, .exportConflict,
              "two different workflows are both run as '\(reference)': \(identity) and \(workflow.identity)",
              file: tree.root.file.path
            ).help("a shared file embeds each by that name; rename one of them"))
        }
        continue
      }
      seen[reference] = workflow.identity
      switch ownText(of: workflow) {
      case .success(let text): embedded.append((reference, text))
      case .failure(let error): problems.append(contentsOf: error.diagnostics)
      }
    }
    var out: [UInt8]
    switch ownText(of: tree.root) {
    case .success(let text): out = text
    case .failure(let error):
      problems.append(contentsOf: error.diagnostics)
      out = []
    }
    guard !problems.hasErrors else { return .failure(DiagnosticError(problems)) }
    if let last = out.last, last != 0x0A { out.append(0x0A) }
    var tail = """
      shared:
        created: \(shared.created)
        modified: \(shared.modified)
        actions: \(shared.actions)
        flow-version: \(YAMLText.key(shared.flowVersion))

      """
    if !embedded.isEmpty {
      tail += "workflows:\n"
      for (reference, text) in embedded {
        tail += "  \(YAMLText.key(reference)):\n"
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
          .dropLast(text.last == 0x0A ? 1 : 0)
        {
          tail += line.isEmpty ? "\n" : "    \(line)\n"
        }
      }
    }
    return .success(out + Array(tail.utf8))
  }

  /// A workflow's own text: its file's, or for an embedded workflow its part of the file brought back
  /// to the left margin; without a signature block, `shared:`, `workflows:`, or secret defaults.
  static func ownText(of workflow: Workflow) -> Result<[UInt8], DiagnosticError> {
    var bytes = workflow.file.bytes
    switch SignatureBlock.split(bytes) {
    case .unsigned: break
    case .signed(let content, _, _): bytes = content
    case .malformed(let problem):
      return .failure(
        DiagnosticError(
          Diagnostic(
            .error, .malformedSignature, "the file has a signature block that does not read: \(problem)",
            file: workflow.file.path
          ).help("remove the '# flow-signature' lines; 'flow export --sign' signs the export anew")))
    }
    if let name = workflow.embeddedName {
      let file = SourceFile(path: workflow.file.path, bytes: bytes)
      guard let entry = YAMLDocument.load(file).root?.mapping?["workflows"]?.value.mapping?[name],
        let mapping = entry.value.mapping, !mapping.isFlow
      else {
        return .failure(
          DiagnosticError(
            Diagnostic(.error, .exportConflict, "the embedded workflow '\(name)' does not read", file: file.path)))
      }
      bytes = dedented(part(of: bytes, mapping), by: (mapping.entries.first?.key.span.start.column ?? 1) - 1)
    }
    let file = SourceFile(path: workflow.identity, bytes: bytes)
    guard let root = YAMLDocument.load(file).root?.mapping else {
      return .failure(DiagnosticError(Diagnostic(.error, .exportConflict, "the file does not read", file: file.path)))
    }
    guard !root.isFlow else {
      return .failure(
        DiagnosticError(
          Diagnostic(
            .error, .exportConflict, "the top level is written as a flow mapping ('{…}')", at: root.span
          ).help("write it as a block mapping, one key per line, so that export can add to it")))
    }
    var editor = TextEditor(bytes)
    for key in WorkflowFormat.fileOnlyKeys.sorted() {
      if let entry = root[key] { editor.remove(entry, in: root) }
    }
    dropSecretDefaults(in: root, editor: &editor)
    return .success(editor.applied())
  }

  /// Removes `default:` from every input marked `secret: true`.
  static func dropSecretDefaults(in root: YAMLNode.Mapping, editor: inout TextEditor) {
    guard let inputs = root["input"]?.value.mapping else { return }
    for input in inputs.entries {
      guard let declaration = input.value.mapping, declaration["secret"]?.value.scalar?.resolved == .bool(true),
        let entry = declaration["default"]
      else { continue }
      editor.remove(entry, in: declaration)
    }
  }

  /// The lines a block mapping takes.
  private static func part(of bytes: [UInt8], _ mapping: YAMLNode.Mapping) -> [UInt8] {
    let editor = TextEditor(bytes)
    let first = mapping.entries.first?.key.span.start.line ?? mapping.span.start.line
    var last = TextEditor.lastLine(of: .mapping(mapping))
    if last < first { last = first }
    return Array(bytes[editor.lineStart(first)..<editor.lineStart(last + 1)])
  }

  /// `bytes` with up to `columns` leading spaces taken off each line.
  private static func dedented(_ bytes: [UInt8], by columns: Int) -> [UInt8] {
    var out: [UInt8] = []
    var atLineStart = true
    var removed = 0
    for byte in bytes {
      if atLineStart, byte == 0x20, removed < columns {
        removed += 1
        continue
      }
      atLineStart = byte == 0x0A
      if atLineStart { removed = 0 }
      out.append(byte)
    }
    if let last = out.last, last != 0x0A { out.append(0x0A) }
    // Plain multi-line text and block scalars keep their relative indentation; the check of the whole
    // export catches what does not read back.
    return out
  }
}
