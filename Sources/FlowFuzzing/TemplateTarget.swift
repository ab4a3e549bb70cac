import FlowDiagnostics
import FlowModel
import FlowYAML

/// A YAML document as the decoder meets it: every scalar parsed as a template (`${…}`) and every node
/// as a condition (`when:`, `if:`), with their diagnostics rendered. YAML is the carrier because both
/// parsers take YAML nodes, whose spans they map back into the file.
enum TemplateTarget {
  static func run(_ bytes: [UInt8]) {
    let file = SourceFile(path: "fuzz.yml", bytes: bytes)
    let document = YAMLDocument.load(file)
    guard let root = document.root else { return }
    var diagnostics = document.diagnostics
    var pending = [root]
    while let node = pending.popLast() {
      if let condition = Condition.parse(node, into: &diagnostics) { _ = condition.references }
      switch node {
      case .scalar(let scalar):
        let template = Template.parse(scalar, into: &diagnostics)
        _ = (template.asWritten, template.references, template.literal, template.wholeReference)
      case .sequence(let sequence):
        pending += sequence.items
      case .mapping(let mapping):
        for entry in mapping.entries {
          pending.append(.scalar(entry.key))
          pending.append(entry.value)
        }
      }
    }
    _ = DiagnosticRenderer(colors: true).render(diagnostics)
  }
}
