internal import CLibYAML
import FlowDiagnostics

/// A loaded YAML file: its single document's root node, and every problem found while reading it.
///
/// Loading reads libyaml's event stream into ``YAMLNode``s, keeping start and end positions for every
/// node and key. Syntax errors stop the load (libyaml cannot recover from them); duplicate keys and
/// non-text keys are collected so that all of them are reported at once.
public struct YAMLDocument: Sendable {
  public let file: SourceFile
  /// The document's root, or nil when the file holds no document (empty, or only comments) or could
  /// not be read.
  public let root: YAMLNode?
  public let diagnostics: Diagnostics

  /// Loads `file` under `limits`.
  public static func load(_ file: SourceFile, limits: YAMLLimits = .workflow) -> YAMLDocument {
    if let tooLarge = limits.checkFileSize(file.bytes.count, path: file.path) {
      return YAMLDocument(file: file, root: nil, diagnostics: Diagnostics([tooLarge]))
    }
    let builder = TreeBuilder(file: file, limits: limits)
    builder.run()
    return YAMLDocument(file: file, root: builder.root, diagnostics: builder.diagnostics)
  }
}

// MARK: - Building the tree from libyaml's events

/// Turns libyaml's events into nodes with an explicit stack, so nesting depth never touches the call
/// stack.
///
/// Frames are classes on purpose: an enum or struct frame holding the child array would make every
/// append copy the array (a second reference defeats copy-on-write), which measured 30× slower.
private final class TreeBuilder {
  let file: SourceFile
  let limits: YAMLLimits
  var root: YAMLNode?
  var diagnostics = Diagnostics()

  private var stack: [Frame] = []
  private var anchors: [String: (node: YAMLNode, count: Int)] = [:]
  private var expanded = 0
  private var documents = 0

  init(file: SourceFile, limits: YAMLLimits) {
    self.file = file
    self.limits = limits
  }

  func run() {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
      diagnostics.append(Diagnostic(.error, .yamlSyntax, "libyaml could not start (out of memory)", file: file.path))
      return
    }
    defer { yaml_parser_delete(&parser) }
    file.bytes.withUnsafeBufferPointer { buffer in
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      var event = yaml_event_t()
      while true {
        guard yaml_parser_parse(&parser, &event) == 1 else {
          diagnostics.append(LibYAMLProblem(parser).diagnostic(in: file))
          return
        }
        defer { yaml_event_delete(&event) }
        if event.type == YAML_STREAM_END_EVENT || !handle(&event) { return }
      }
    }
  }

  /// Handles one event; false stops the load after a fatal problem.
  private func handle(_ event: inout yaml_event_t) -> Bool {
    switch event.type {
    case YAML_SCALAR_EVENT:
      let data = event.data.scalar
      let span = span(event.start_mark, event.end_mark)
      guard data.length <= limits.maxScalarSize else {
        return fatal(
          Diagnostic(
            .error, .scalarTooLarge,
            "this value is \(ByteCount(data.length)), more than the \(ByteCount(limits.maxScalarSize)) "
              + "one value may be", at: SourceSpan(file: file, at: span.start)))
      }
      guard checkTag(data.tag, at: span) else { return false }
      let value = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
      let scalar = YAMLNode.Scalar(value: value, style: Self.style(data.style), span: span)
      let node = YAMLNode.scalar(scalar)
      if let anchor = data.anchor { anchors[String(cString: anchor)] = (node, 1) }
      return add(node, count: 1)

    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let isMapping = event.type == YAML_MAPPING_START_EVENT
      let start = location(event.start_mark)
      guard stack.count < limits.maxDepth else {
        return fatal(
          Diagnostic(.error, .nestingTooDeep, "nesting is deeper than \(limits.maxDepth) levels",
            at: SourceSpan(file: file, at: start)))
      }
      let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
      let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
      guard checkTag(tag, at: SourceSpan(file: file, at: start)) else { return false }
      let style = isMapping ? event.data.mapping_start.style.rawValue : event.data.sequence_start.style.rawValue
      // Flow styles are YAML_FLOW_SEQUENCE_STYLE and YAML_FLOW_MAPPING_STYLE, both 2.
      stack.append(
        Frame(isMapping: isMapping, isFlow: style == 2, start: start, anchor: anchor.map { String(cString: $0) }))
      return true

    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      guard let frame = stack.popLast() else { return true }
      let end = frame.isFlow ? location(event.end_mark) : frame.lastEnd ?? frame.start
      let span = SourceSpan(file: file, start: frame.start, end: end)
      let node: YAMLNode
      if frame.isMapping {
        guard let entries = merged(frame) else { return false }
        node = .mapping(YAMLNode.Mapping(entries: entries, span: span, isFlow: frame.isFlow))
      } else {
        node = .sequence(YAMLNode.Sequence(items: frame.items, span: span, isFlow: frame.isFlow))
      }
      if let anchor = frame.anchor { anchors[anchor] = (node, frame.count) }
      return add(node, count: frame.count)

    case YAML_ALIAS_EVENT:
      let name = String(cString: event.data.alias.anchor)
      let span = span(event.start_mark, event.end_mark)
      if stack.contains(where: { $0.anchor == name }) {
        return fatal(
          Diagnostic(.error, .recursiveAlias, "alias '*\(name)' refers to a node that contains it", at: span))
      }
      guard let (node, count) = anchors[name] else {
        let help = Suggestion.closest(to: name, among: anchors.keys.sorted()).map { "did you mean '*\($0)'?" }
        return fatal(
          Diagnostic(.error, .unknownAnchor, "unknown anchor '\(name)'", at: span)
            .help(help ?? "define it first with '&\(name)' on the node to reuse"))
      }
      expanded += count
      guard expanded <= limits.maxAliasExpansion else {
        return fatal(
          Diagnostic(
            .error, .aliasExpansionLimit,
            "aliases expand to more than \(limits.maxAliasExpansion) nodes", at: span
          ).help("a workflow never needs this many; the file may be an alias bomb (\"billion laughs\")"))
      }
      return add(node, count: count)

    case YAML_DOCUMENT_START_EVENT:
      documents += 1
      if documents > 1 {
        return fatal(
          Diagnostic(
            .error, .multipleDocuments, "a workflow file holds one YAML document, but a second one starts here",
            at: SourceSpan(file: file, at: location(event.start_mark))
          ).help("remove the '---' line and what follows it, or split the file in two"))
      }
      return true

    default:
      return true
    }
  }

  // MARK: - Adding nodes

  /// Puts a finished node into its parent: the root, a sequence item, a mapping key or a mapping value.
  private func add(_ node: YAMLNode, count: Int) -> Bool {
    guard let frame = stack.last else {
      root = node
      return true
    }
    frame.count += count
    frame.lastEnd = node.span.end
    guard frame.isMapping else {
      // Most collections in a workflow hold a handful of items: one allocation instead of three or
      // four doublings.
      if frame.items.isEmpty { frame.items.reserveCapacity(8) }
      frame.items.append(node)
      return true
    }
    switch frame.key {
    case .none:
      guard case .scalar(let key) = node else {
        diagnostics.append(
          Diagnostic(.error, .nonTextKey, "a key must be text, found \(node.kindName)", at: node.span))
        frame.key = .skip
        return true
      }
      frame.key = .key(key)
    case .skip:
      frame.key = .none
    case .key(let key):
      frame.key = .none
      if key.style == .plain, key.value == "<<" {
        frame.merges.append(node)
      } else if let first = frame.index(of: key.value) {
        diagnostics.append(
          Diagnostic(.error, .duplicateKey, "duplicate key '\(key.value)'", at: key.span)
            .note("'\(key.value)' is first defined here", at: frame.entries[first].key.span))
      } else {
        frame.append(YAMLNode.Mapping.Entry(key: key, value: node))
      }
    }
    return true
  }

  /// The mapping's entries with `<<` merge keys applied: keys written in the mapping win, then earlier
  /// merged mappings over later ones (YAML 1.1's merge key, which Docker Compose and GitLab users
  /// rely on).
  private func merged(_ frame: Frame) -> [YAMLNode.Mapping.Entry]? {
    var sources: [YAMLNode.Mapping] = []
    for value in frame.merges {
      switch value {
      case .mapping(let mapping):
        sources.append(mapping)
      case .sequence(let sequence) where sequence.items.allSatisfy { $0.mapping != nil }:
        sources.append(contentsOf: sequence.items.compactMap(\.mapping))
      default:
        _ = fatal(
          Diagnostic(.error, .invalidMerge, "'<<' merges a mapping or a list of mappings, found \(value.kindName)",
            at: value.span
          ).help("write '<<: *name' where '&name' marks a mapping"))
        return nil
      }
    }
    for source in sources {
      for entry in source.entries where frame.index(of: entry.key.value) == nil {
        frame.append(entry)
      }
    }
    return frame.entries
  }

  // MARK: - Helpers

  private func fatal(_ diagnostic: Diagnostic) -> Bool {
    diagnostics.append(diagnostic)
    return false
  }

  /// Tags are refused: workflow files have no use for them, and `!!str`-style typing would be a second
  /// way to say what quotes already say.
  private func checkTag(_ tag: UnsafeMutablePointer<yaml_char_t>?, at span: SourceSpan) -> Bool {
    guard let tag else { return true }
    let name = String(cString: tag).replacingPrefix("tag:yaml.org,2002:", with: "!!")
    return fatal(
      Diagnostic(.error, .unsupportedTag, "YAML tags such as '\(name)' are not supported", at: span)
        .help("quote a value to make it text"))
  }

  private func location(_ mark: yaml_mark_t) -> SourceLocation {
    SourceLocation(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
  }

  private func span(_ start: yaml_mark_t, _ end: yaml_mark_t) -> SourceSpan {
    SourceSpan(file: file, start: location(start), end: location(end))
  }

  private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.Scalar.Style {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: .literal
    case YAML_FOLDED_SCALAR_STYLE: .folded
    default: .plain
    }
  }
}

/// A sequence or mapping under construction.
private final class Frame {
  enum Key {
    case none
    case key(YAMLNode.Scalar)
    /// The key was not text; its value is dropped (the problem is already reported).
    case skip
  }

  let isMapping: Bool
  let isFlow: Bool
  let start: SourceLocation
  let anchor: String?
  var items: [YAMLNode] = []
  var entries: [YAMLNode.Mapping.Entry] = []
  var key = Key.none
  var merges: [YAMLNode] = []
  /// Nodes in this subtree, aliases counted at their expanded size.
  var count = 1
  /// The end of the last child: a block collection ends there, not where libyaml's end event points
  /// (the start of whatever follows).
  var lastEnd: SourceLocation?
  /// Key positions, built once a mapping is large enough that scanning would cost more than hashing.
  private var index: [String: Int]?

  init(isMapping: Bool, isFlow: Bool, start: SourceLocation, anchor: String?) {
    self.isMapping = isMapping
    self.isFlow = isFlow
    self.start = start
    self.anchor = anchor
  }

  func index(of key: String) -> Int? {
    if let index { return index[key] }
    return entries.firstIndex { $0.key.value == key }
  }

  func append(_ entry: YAMLNode.Mapping.Entry) {
    if entries.isEmpty { entries.reserveCapacity(8) }
    entries.append(entry)
    if index != nil {
      index?[entry.key.value] = entries.count - 1
    } else if entries.count > 16 {
      index = Dictionary(entries.enumerated().map { ($1.key.value, $0) }, uniquingKeysWith: { first, _ in first })
    }
  }
}

extension String {
  fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}
