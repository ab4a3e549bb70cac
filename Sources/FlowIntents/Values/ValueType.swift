import FlowDiagnostics
import FoundationEssentials

/// The declared type of a parameter, a property or a step's output: what the checker reasons with.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
  case text
  case number
  /// A whole number (`Int`); shown as "Integer" so that `2.5` is refused with a reason.
  case integer
  case boolean
  case date
  case url
  /// A length of time, written `30s`, `2m`, `1h30m` or `500ms`, or a number of seconds.
  case duration
  case list(ValueType)
  case dictionary
  case entity(EntityType)
  case enumeration(EnumType)
  /// Any value at all (`show`, `list` items).
  case any
  case nothing

  /// The name used in diagnostics and `flow actions`: "Text", "List of Bookmark", "Sort Order".
  public var name: String {
    switch self {
    case .text: "Text"
    case .number: "Number"
    case .integer: "Integer"
    case .boolean: "Boolean"
    case .date: "Date"
    case .url: "URL"
    case .duration: "Duration"
    case .list(.any): "List"
    case .list(let element): "List of \(element.name)"
    case .dictionary: "Dictionary"
    case .entity(let entity): entity.name
    case .enumeration(let enumeration): enumeration.name
    case .any: "Any"
    case .nothing: "Nothing"
    }
  }

  /// The spelling a workflow file uses for the type (`input: {type: "[text]"}`): "text", "[url]".
  public var spelling: String {
    switch self {
    case .text: "text"
    case .number: "number"
    case .integer: "integer"
    case .boolean: "boolean"
    case .date: "date"
    case .url: "url"
    case .duration: "duration"
    case .list(let element): "[\(element.spelling)]"
    case .dictionary: "dictionary"
    case .entity(let entity): Naming.kebabCase(entity.name)
    case .enumeration(let enumeration): Naming.kebabCase(enumeration.name)
    case .any: "any"
    case .nothing: "nothing"
    }
  }

  public var description: String { name }

  /// Parses a workflow's type spelling (`text`, `number`, `"[text]"`); nil for an unknown name.
  /// Entity and enum types are not spelt in files; they come from the catalogue.
  public init?(spelling: String) {
    let trimmed = spelling.trimmingBlanks
    if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
      guard let element = ValueType(spelling: String(trimmed.dropFirst().dropLast())) else { return nil }
      self = .list(element)
      return
    }
    switch trimmed.lowercased() {
    case "text", "string": self = .text
    case "number": self = .number
    case "integer": self = .integer
    case "boolean", "bool": self = .boolean
    case "date": self = .date
    case "url": self = .url
    case "duration": self = .duration
    case "dictionary": self = .dictionary
    case "list": self = .list(.any)
    case "any": self = .any
    default: return nil
    }
  }

  /// The spellings `ValueType(spelling:)` accepts, for did-you-mean.
  public static let spellings = [
    "text", "number", "integer", "boolean", "date", "url", "duration", "dictionary", "list", "any",
  ]

  /// Whether values of this type are lists.
  public var isList: Bool {
    if case .list = self { return true }
    return false
  }

  /// The element type of a list type, or the type itself.
  public var elementType: ValueType {
    if case .list(let element) = self { return element }
    return self
  }

  /// The properties `${name.property}` may reach on a value of this type, with their types.
  ///
  /// Entities list their `@Property`s; URLs, lists, dates and text have a few of their own; a
  /// dictionary's keys are only known at run time, so it answers `any` for every name (see
  /// ``property(named:)``).
  public var properties: [PropertySchema] {
    switch self {
    case .entity(let entity): entity.properties
    case .url:
      [
        .init(key: "host", title: "Host", type: .text), .init(key: "scheme", title: "Scheme", type: .text),
        .init(key: "path", title: "Path", type: .text), .init(key: "query", title: "Query", type: .text),
        .init(key: "port", title: "Port", type: .integer),
      ]
    case .list(let element):
      [
        .init(key: "count", title: "Count", type: .integer), .init(key: "first", title: "First Item", type: element),
        .init(key: "last", title: "Last Item", type: element),
      ]
    case .text:
      // Text that holds a URL has a URL's properties too (a link in JSON is text): the run reads them
      // from the URL the text holds, and fails the step, naming the text, when it holds none.
      [.init(key: "count", title: "Number of Characters", type: .integer)] + ValueType.url.properties
    case .date:
      [
        .init(key: "year", title: "Year", type: .integer), .init(key: "month", title: "Month", type: .integer),
        .init(key: "day", title: "Day", type: .integer),
      ]
    default: []
    }
  }

  /// The type of `${value.name}`, or nil when values of this type have no such property.
  public func property(named name: String) -> ValueType? {
    switch self {
    case .dictionary, .any: .any
    default: properties.first { $0.key == name }?.type
    }
  }
}

/// One property of a type: the key users write, a title, and its type.
public struct PropertySchema: Sendable, Hashable {
  public var key: String
  public var title: String
  public var type: ValueType

  public init(key: String, title: String, type: ValueType) {
    self.key = key
    self.title = title
    self.type = type
  }
}

/// An entity type as the checker sees it: its name and properties.
///
/// Equal by name: entity types can refer to each other (a Bookmark's Collection), so the property list
/// is computed on demand rather than nested eagerly.
public struct EntityType: Sendable, Hashable {
  public let name: String
  private let schema: @Sendable () -> [PropertySchema]

  public init(name: String, properties: @escaping @Sendable () -> [PropertySchema]) {
    self.name = name
    self.schema = properties
  }

  public var properties: [PropertySchema] { schema() }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// An enum type: its name and its cases' ids and display names.
public struct EnumType: Sendable, Hashable {
  /// One case: the id users write and the name shown.
  public struct Case: Sendable, Hashable {
    public var id: String
    public var title: String
    public init(id: String, title: String) {
      self.id = id
      self.title = title
    }
  }

  public var name: String
  public var cases: [Case]

  public init(name: String, cases: [Case]) {
    self.name = name
    self.cases = cases
  }

  /// The case whose id or display name is `text`, compared without regard to case.
  public func match(_ text: String) -> Case? {
    let wanted = text.trimmingBlanks.lowercased()
    return cases.first { $0.id.lowercased() == wanted } ?? cases.first { $0.title.lowercased() == wanted }
  }
}

extension StringProtocol {
  /// Without the spaces and tabs around it, as `trimmingWhitespace()` gives, in Swift
  /// alone: Foundation's first call bridges through NSString, 0.9 M instructions in a run that checks
  /// one `${trigger}` (Documentation/Performance.md).
  public var trimmingBlanks: String {
    let blank = { (character: Character) in character.isWhitespace && !character.isNewline }
    guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
    return String(self[first...last])
  }
}
