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
    if let encoding = TextEncoding.problem(file.bytes, in: file) {
      return YAMLDocument(file: file, root: nil, diagnostics: Diagnostics([encoding]))
    }
    var builder = TreeBuilder(file: file, limits: limits)
    builder.run()
    return YAMLDocument(file: file, root: builder.root, diagnostics: builder.diagnostics)
  }
}

// MARK: - Building the tree from libyaml's events

/// Turns libyaml's events into nodes with an explicit stack, so nesting depth never touches the call
/// stack. A struct, not a class: its state is then checked for exclusive access at compile time rather
/// than on every access at run time.
///
/// Children of open collections wait in two scratch buffers shared by the whole load; when a collection
/// closes, its children are copied into one array of exactly their size. Compared with growing an array
/// per collection this allocates once per collection instead of three or four times and wastes no
/// capacity, which measured as the largest cost after libyaml itself.
private struct TreeBuilder: ~Copyable {
  let file: SourceFile
  /// The file's number, which every span stores.
  private let fileID: UInt32
  let limits: YAMLLimits
  var root: YAMLNode?
  var diagnostics = Diagnostics()

  private var stack: [Frame] = []
  private var items = ScratchStack<YAMLNode>()
  private var entries = ScratchStack<YAMLNode.Mapping.Entry>()
  private var anchors: [String: (node: YAMLNode, count: Int)] = [:]
  private var expanded = 0
  private var documents = 0

  init(file: SourceFile, limits: YAMLLimits) {
    self.file = file
    self.fileID = file.id
    self.limits = limits
  }

  mutating func run() {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
      diagnostics.append(Diagnostic(.error, .yamlSyntax, "libyaml could not start (out of memory)", file: file.path))
      return
    }
    defer { yaml_parser_delete(&parser) }
    // A UTF-8 byte-order mark is allowed (WorkflowFormat.md), and no column: libyaml, told the encoding,
    // would take it as one, and the first line's keys as indented, so it is not handed over at all.
    let mark = file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    file.bytes.withUnsafeBufferPointer { buffer in
      yaml_parser_set_input_string(&parser, buffer.baseAddress.map { $0 + mark }, buffer.count - mark)
      // Never guess another encoding: spans count UTF-8 bytes (see TextEncoding).
      yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
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
  private mutating func handle(_ event: inout yaml_event_t) -> Bool {
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
      let node = YAMLNode.scalar(YAMLNode.Scalar(value: value, style: Self.style(data.style), span: span))
      if let anchor = data.anchor { anchors[String(cString: anchor)] = (node, 1) }
      return add(node, count: 1, end: span.end)

    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let isMapping = event.type == YAML_MAPPING_START_EVENT
      let start = location(event.start_mark)
      guard stack.count < limits.maxDepth else {
        return fatal(
          Diagnostic(
            .error, .nestingTooDeep, "nesting is deeper than \(limits.maxDepth) levels",
            at: SourceSpan(file: file, at: start)))
      }
      let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
      let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
      guard checkTag(tag, at: SourceSpan(file: file, at: start)) else { return false }
      let style = isMapping ? event.data.mapping_start.style.rawValue : event.data.sequence_start.style.rawValue
      stack.append(
        Frame(
          isMapping: isMapping,
          // Flow styles are YAML_FLOW_SEQUENCE_STYLE and YAML_FLOW_MAPPING_STYLE, both 2.
          isFlow: style == 2,
          start: start,
          anchor: anchor.map { String(cString: $0) },
          base: isMapping ? entries.count : items.count))
      return true

    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      guard let frame = stack.popLast() else { return true }
      let end = frame.isFlow ? location(event.end_mark) : frame.lastEnd ?? frame.start
      let span = SourceSpan(fileID: fileID, start: frame.start, end: end)
      let node: YAMLNode
      if frame.isMapping {
        var children = entries.popArray(from: frame.base)
        if !frame.merges.isEmpty {
          guard merge(frame.merges, into: &children) else { return false }
        }
        node = .mapping(YAMLNode.Mapping(entries: children, span: span, isFlow: frame.isFlow))
      } else {
        let children = items.popArray(from: frame.base)
        node = .sequence(YAMLNode.Sequence(items: children, span: span, isFlow: frame.isFlow))
      }
      if let anchor = frame.anchor { anchors[anchor] = (node, frame.count) }
      return add(node, count: frame.count, end: end)

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
      return add(node, count: count, end: span.end)

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
  private mutating func add(_ node: consuming YAMLNode, count: Int, end: SourceLocation) -> Bool {
    let top = stack.count - 1
    guard top >= 0 else {
      root = node
      return true
    }
    stack[top].count += count
    stack[top].lastEnd = end
    guard stack[top].isMapping else {
      items.append(node)
      return true
    }
    switch stack[top].key {
    case .none:
      guard case .scalar(let key) = node else {
        diagnostics.append(
          Diagnostic(.error, .nonTextKey, "a key must be text, found \(node.kindName)", at: node.span))
        stack[top].key = .skip
        return true
      }
      stack[top].key = .key(key)
    case .skip:
      stack[top].key = .none
    case .key(let key):
      stack[top].key = .none
      if key.style == .plain, key.value == "<<" {
        stack[top].merges.append(node)
      } else if let first = position(of: key.value, in: top) {
        diagnostics.append(
          Diagnostic(.error, .duplicateKey, "duplicate key '\(key.value)'", at: key.span)
            .note("'\(key.value)' is first defined here", at: entries.withElement(at: first) { $0.key.span }))
      } else {
        if stack[top].index == nil, entries.count - stack[top].base >= 16 {
          stack[top].index = keyIndex(from: stack[top].base)
        }
        stack[top].index?[key.value] = entries.count
        entries.append(YAMLNode.Mapping.Entry(key: key, value: node))
      }
    }
    return true
  }

  /// Where `key` already stands among the entries of the open mapping at `level`, if it does.
  private func position(of key: String, in level: Int) -> Int? {
    if let index = stack[level].index { return index[key] }
    for position in stack[level].base..<entries.count where entries.withElement(at: position, { $0.key.value == key }) {
      return position
    }
    return nil
  }

  /// Key positions of the open mapping whose entries start at `base`, for mappings past 16 keys, where
  /// hashing beats scanning.
  private func keyIndex(from base: Int) -> [String: Int] {
    var index: [String: Int] = [:]
    for position in base..<entries.count {
      index[entries.withElement(at: position) { $0.key.value }] = position
    }
    return index
  }

  /// Applies `<<` merge keys: keys written in the mapping win, then earlier merged mappings over later
  /// ones (YAML 1.1's merge key, which Docker Compose and GitLab users rely on).
  private mutating func merge(_ values: [YAMLNode], into children: inout [YAMLNode.Mapping.Entry]) -> Bool {
    var sources: [YAMLNode.Mapping] = []
    for value in values {
      switch value {
      case .mapping(let mapping):
        sources.append(mapping)
      case .sequence(let sequence) where sequence.items.allSatisfy { $0.mapping != nil }:
        sources.append(contentsOf: sequence.items.compactMap(\.mapping))
      default:
        return fatal(
          Diagnostic(
            .error, .invalidMerge, "'<<' merges a mapping or a list of mappings, found \(value.kindName)",
            at: value.span
          ).help("write '<<: *name' where '&name' marks a mapping"))
      }
    }
    var present = Set(children.map(\.key.value))
    for source in sources {
      for entry in source.entries where present.insert(entry.key.value).inserted {
        children.append(entry)
      }
    }
    return true
  }

  // MARK: - Helpers

  private mutating func fatal(_ diagnostic: Diagnostic) -> Bool {
    diagnostics.append(diagnostic)
    return false
  }

  /// Tags are refused: workflow files have no use for them, and `!!str`-style typing would be a second
  /// way to say what quotes already say.
  private mutating func checkTag(_ tag: UnsafeMutablePointer<yaml_char_t>?, at span: SourceSpan) -> Bool {
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
    SourceSpan(fileID: fileID, start: location(start), end: location(end))
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

/// A sequence or mapping under construction; its children wait in the builder's scratch buffers from
/// `base` on.
private struct Frame {
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
  let base: Int
  var key = Key.none
  var merges: [YAMLNode] = []
  /// Nodes in this subtree, aliases counted at their expanded size.
  var count = 1
  /// The end of the last child: a block collection ends there, not where libyaml's end event points
  /// (the start of whatever follows).
  var lastEnd: SourceLocation?
  /// Key positions in the scratch buffer, built once a mapping is large enough that scanning would
  /// cost more than hashing.
  var index: [String: Int]?

  init(isMapping: Bool, isFlow: Bool, start: SourceLocation, anchor: String?, base: Int) {
    self.isMapping = isMapping
    self.isFlow = isFlow
    self.start = start
    self.anchor = anchor
    self.base = base
  }

}

extension String {
  fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}
