import FlowDiagnostics
import FoundationEssentials

/// A value passed from step to step: what a magic variable holds.
///
/// The cases follow Shortcuts' content types. Numbers are one case: `3` prints "3" and `1.1` prints
/// "1.1" (``FlowValue/formatNumber(_:)``), which keeps arithmetic and comparison simple; whole numbers
/// are exact up to 2^53, far beyond any id or count a workflow meets.
public indirect enum FlowValue: Sendable, Hashable {
  case text(String)
  case number(Double)
  case boolean(Bool)
  case date(Date)
  case url(URL)
  case list([FlowValue])
  case dictionary(FlowDictionary)
  case entity(EntityValue)
  case nothing

  /// The name of the value's type, for diagnostics: "Text", "Number", "Bookmark", "List of Bookmark".
  public var typeName: String {
    switch self {
    case .text: "Text"
    case .number: "Number"
    case .boolean: "Boolean"
    case .date: "Date"
    case .url: "URL"
    case .dictionary: "Dictionary"
    case .entity(let entity): entity.typeName
    case .nothing: "Nothing"
    case .list(let items):
      if let first = items.first, items.allSatisfy({ $0.typeName == first.typeName }) {
        "List of \(first.typeName)"
      } else {
        "List"
      }
    }
  }

  /// The value as text, by the coercion table (a list joins its items with ", ").
  public var text: String { Coercion.text(of: self) }

  /// The value as a person reads it in a message: text quoted, a list counted ("'lots'", "80",
  /// "a list of 3 items").
  public var quoted: String {
    switch self {
    case .text(let text): "'\(text)'"
    case .number, .boolean: text
    case .list(let items): "a list of \(Count.of(items.count, "item"))"
    case .dictionary(let dictionary): "a dictionary of \(Count.of(dictionary.count, "key"))"
    case .entity(let entity): "\(entity.typeName) '\(entity.title)'"
    case .nothing: "nothing"
    case .date, .url: "'\(text)'"
    }
  }

  /// Whether the value is `nothing`, an empty text, list or dictionary (the `is empty` condition).
  public var isEmpty: Bool {
    switch self {
    case .nothing: true
    case .text(let text): text.isEmpty
    case .list(let items): items.isEmpty
    case .dictionary(let dictionary): dictionary.isEmpty
    default: false
    }
  }

  /// Formats a number the way Shortcuts shows it: whole numbers without a decimal point.
  public static func formatNumber(_ number: Double) -> String {
    if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
      return String(Int64(number))
    }
    return String(number)
  }
}

extension FlowValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .text(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  public init(arrayLiteral elements: FlowValue...) { self = .list(elements) }
  public init(dictionaryLiteral elements: (String, FlowValue)...) {
    self = .dictionary(FlowDictionary(elements.map { (key: $0.0, value: $0.1) }))
  }
}

/// A dictionary that keeps its keys in the order they were written (or came in JSON).
public struct FlowDictionary: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  public private(set) var entries: [(key: String, value: FlowValue)]

  /// The entries in order; a key that comes again sets the first one's value, as the subscript does.
  /// Linear: a mapping or a JSON object of 200,000 keys searched the entries before each (quadratic).
  public init(_ entries: [(key: String, value: FlowValue)] = []) {
    var kept: [(key: String, value: FlowValue)] = []
    kept.reserveCapacity(entries.count)
    var positions: [String: Int] = [:]
    for entry in entries {
      if let position = positions[entry.key] {
        kept[position].value = entry.value
      } else {
        positions[entry.key] = kept.count
        kept.append(entry)
      }
    }
    self.entries = kept
  }

  /// Entries whose keys are known to differ, kept as they are (no search for an earlier equal key).
  init(uniqueKeys entries: [(key: String, value: FlowValue)]) {
    self.entries = entries
  }

  public init(dictionaryLiteral elements: (String, FlowValue)...) {
    self.init(elements.map { (key: $0.0, value: $0.1) })
  }

  public var keys: [String] { entries.map(\.key) }
  public var values: [FlowValue] { entries.map(\.value) }
  public var count: Int { entries.count }
  public var isEmpty: Bool { entries.isEmpty }

  /// The value for `key`; setting a new key appends it, setting nil removes it.
  public subscript(key: String) -> FlowValue? {
    get { entries.first { $0.key == key }?.value }
    set {
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
      } else if let newValue {
        entries.append((key: key, value: newValue))
      }
    }
  }

  public func makeIterator() -> IndexingIterator<[(key: String, value: FlowValue)]> { entries.makeIterator() }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    for entry in entries {
      hasher.combine(entry.key)
      hasher.combine(entry.value)
    }
  }
}

/// An entity as a value: its type, id, title and properties, and the Swift instance it came from.
///
/// The instance travels along in-process, so passing a Bookmark from one step to the next needs no
/// second lookup; an entity rebuilt from elsewhere (an id in a file) has none and is found again
/// through its query.
///
/// An entity made in this process keeps only its type name and instance, and reads its id, title,
/// subtitle and properties from the instance when they are asked for: a listing of 100,000 Files makes
/// one small value per File, with no id, title or property dictionary built for it (Files.md). Values
/// given outright (an entity read back from a file, one a dry run makes up) or set later are kept in
/// a `Given`, shared between copies.
public struct EntityValue: Sendable, Hashable {
  /// The entity type's display name: "Bookmark".
  public var typeName: String
  /// The Swift value, when the entity was made in this process.
  public var instance: (any AppEntity)?
  private var given: Given?

  /// What was given or set rather than read from the instance; `properties` nil means the instance's.
  private final class Given: Sendable {
    let id: FlowValue
    let title: String
    let subtitle: String?
    let properties: FlowDictionary?

    init(id: FlowValue, title: String, subtitle: String?, properties: FlowDictionary?) {
      self.id = id
      self.title = title
      self.subtitle = subtitle
      self.properties = properties
    }
  }

  public init(
    typeName: String,
    id: FlowValue,
    title: String,
    subtitle: String? = nil,
    properties: FlowDictionary,
    instance: (any AppEntity)? = nil
  ) {
    self.typeName = typeName
    self.instance = instance
    self.given = Given(id: id, title: title, subtitle: subtitle, properties: properties)
  }

  /// An entity made in this process, whose id, title and properties its instance gives when read.
  public init(typeName: String, instance: any AppEntity) {
    self.typeName = typeName
    self.instance = instance
  }

  /// The id, as a value (a number or text).
  public var id: FlowValue {
    get { given?.id ?? instance?.idValue ?? .nothing }
    set { given = Given(id: newValue, title: title, subtitle: subtitle, properties: given?.properties) }
  }

  /// What a list or prompt shows; what the entity gives where text is wanted.
  public var title: String {
    get { given?.title ?? instance?.displayRepresentation.title ?? "" }
    set { given = Given(id: id, title: newValue, subtitle: subtitle, properties: given?.properties) }
  }

  public var subtitle: String? {
    get { given.map(\.subtitle) ?? instance?.displayRepresentation.subtitle }
    set { given = Given(id: id, title: title, subtitle: newValue, properties: given?.properties) }
  }

  /// The `@Property` values by key, in declaration order: those given, else the instance's, read when
  /// they are asked for (a File reads its size and dates only when a step uses one).
  public var properties: FlowDictionary {
    get { given?.properties ?? instance?.propertyValues ?? FlowDictionary() }
    set { given = Given(id: id, title: title, subtitle: subtitle, properties: newValue) }
  }

  /// One property, without building the others.
  public func property(_ key: String) -> FlowValue? {
    if let properties = given?.properties { return properties[key] }
    return instance?.propertyValue(forKey: key)
  }

  /// The entity's link: its first URL property (a Bookmark's `link`), used where a URL is wanted.
  public var link: URL? {
    for (_, value) in properties { if case .url(let url) = value { return url } }
    return nil
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.typeName == rhs.typeName && lhs.id == rhs.id && lhs.title == rhs.title
      && lhs.subtitle == rhs.subtitle && lhs.properties == rhs.properties
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(typeName)
    hasher.combine(id)
  }
}
