import FlowDiagnostics

/// A node of a YAML document, with the exact place it came from.
///
/// Scalars keep their style so that callers can tell `"true"` (text) from `true` (a boolean); mappings
/// keep their keys in order, and every key carries its own span so that "unknown key" points at the key.
/// Aliases are expanded when the document is loaded: an alias node is the anchored node, spans included.
public enum YAMLNode: Sendable {
  case scalar(Scalar)
  case sequence(Sequence)
  case mapping(Mapping)

  /// Where the node starts and ends: for a scalar its text (with quotes), for a collection its first to
  /// last character.
  public var span: SourceSpan {
    switch self {
    case .scalar(let scalar): scalar.span
    case .sequence(let sequence): sequence.span
    case .mapping(let mapping): mapping.span
    }
  }

  /// What a person calls this kind of node, for "expected a mapping, found a sequence".
  public var kindName: String {
    switch self {
    case .scalar(let scalar):
      switch scalar.resolved {
      case .null: "nothing (null)"
      case .bool: "a boolean"
      case .int, .double: "a number"
      case .string: "text"
      }
    case .sequence: "a sequence"
    case .mapping: "a mapping"
    }
  }

  public var scalar: Scalar? {
    if case .scalar(let scalar) = self { return scalar }
    return nil
  }

  public var sequence: Sequence? {
    if case .sequence(let sequence) = self { return sequence }
    return nil
  }

  public var mapping: Mapping? {
    if case .mapping(let mapping) = self { return mapping }
    return nil
  }
}

extension YAMLNode {
  /// A scalar: its text as written (after YAML unescaping and folding) and how it was written.
  public struct Scalar: Sendable {
    public enum Style: Sendable, Hashable {
      case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public var value: String
    public var style: Style
    public var span: SourceSpan

    public init(value: String, style: Style, span: SourceSpan) {
      self.value = value
      self.style = style
      self.span = span
    }

    /// The typed value under flow's rules (SPEC §1). Only plain scalars are typed; quoted and block
    /// scalars are always text.
    public var resolved: ScalarValue {
      style == .plain ? ScalarValue(plain: value) : .string(value)
    }
  }

  /// A sequence and its items in order.
  public struct Sequence: Sendable {
    public var items: [YAMLNode]
    public var span: SourceSpan
    /// Written `[a, b]` rather than as `- ` lines.
    public var isFlow: Bool

    public init(items: [YAMLNode], span: SourceSpan, isFlow: Bool = false) {
      self.items = items
      self.span = span
      self.isFlow = isFlow
    }
  }

  /// A mapping whose keys are text, in the order they were written.
  ///
  /// Keys are always scalars: a workflow never needs a list or a mapping as a key, and rejecting them
  /// keeps every key printable in a diagnostic.
  public struct Mapping: Sendable {
    public struct Entry: Sendable {
      public var key: Scalar
      public var value: YAMLNode

      public init(key: Scalar, value: YAMLNode) {
        self.key = key
        self.value = value
      }
    }

    public var entries: [Entry]
    public var span: SourceSpan
    public var isFlow: Bool

    public init(entries: [Entry], span: SourceSpan, isFlow: Bool = false) {
      self.entries = entries
      self.span = span
      self.isFlow = isFlow
    }

    /// The entry for `key`, if present. Keys are unique (duplicates are load errors).
    public subscript(key: String) -> Entry? {
      entries.first { $0.key.value == key }
    }

    public var keys: [String] { entries.map(\.key.value) }
  }
}

/// A scalar's typed value: flow's small, surprise-free subset of YAML 1.2's core schema.
///
/// Only `true` and `false` are booleans (no `yes`/`no`/`on`/`off`), `null` and `~` (and an empty plain
/// value) are null, decimal integers and floats are numbers, and everything else is text.
public enum ScalarValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)

  public init(plain text: String) {
    // Told apart by the first character: most plain values are words and references, compared with no
    // special word, and a number starts with a digit, a sign or a point.
    guard let first = text.utf8.first else {
      self = .null
      return
    }
    switch first {
    case UInt8(ascii: "n") where text == "null", UInt8(ascii: "~") where text == "~": self = .null
    case UInt8(ascii: "t") where text == "true": self = .bool(true)
    case UInt8(ascii: "f") where text == "false": self = .bool(false)
    default: self = Self.number(text) ?? .string(text)
    }
  }

  /// YAML 1.2 core numbers: `[-+]?[0-9]+` as integers (too large ones become doubles) and
  /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` as floats. `1.2.3`, `0x1F` and `1_000` stay text.
  private static func number(_ text: String) -> ScalarValue? {
    // A number starts with a digit, a sign or a point: a word is told apart before its bytes are copied.
    guard let first = text.utf8.first,
      (0x30...0x39).contains(first) || first == 0x2B || first == 0x2D || first == 0x2E
    else { return nil }
    let bytes = Array(text.utf8)
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
    let whole = digits()
    var isFloat = false
    if index < bytes.count, bytes[index] == 0x2E {
      index += 1
      isFloat = true
      if digits() == 0, whole == 0 { return nil }
    } else if whole == 0 {
      return nil
    }
    if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
      index += 1
      isFloat = true
      if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
      if digits() == 0 { return nil }
    }
    guard index == bytes.count else { return nil }
    if !isFloat, let int = Int(text) { return .int(int) }
    return Double(text).map(ScalarValue.double)
  }
}
