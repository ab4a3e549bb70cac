import FlowDiagnostics
import Foundation

/// A value passed from step to step: what a magic variable holds.
///
/// The cases follow Shortcuts' content types. Numbers are one case: `3` prints "3" and `1.1` prints
/// "1.1" (``FlowValue/formatNumber(_:)``), which keeps arithmetic and comparison simple; whole numbers
/// are exact up to 2^53, far beyond any id or count a workflow meets.
package indirect enum FlowValue: Sendable, Hashable {
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
  package var typeName: String {
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
  package var text: String { Coercion.text(of: self) }

  /// The value as a person reads it in a message: text quoted, a list counted ("'lots'", "80",
  /// "a list of 3 items").
  package var quoted: String {
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
  package var isEmpty: Bool {
    switch self {
    case .nothing: true
    case .text(let text): text.isEmpty
    case .list(let items): items.isEmpty
    case .dictionary(let dictionary): dictionary.isEmpty
    default: false
    }
  }

  /// Formats a number the way Shortcuts shows it: whole numbers without a decimal point.
  package static func formatNumber(_ number: Double) -> String {
    if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
      return String(Int64(number))
    }
    return String(number)
  }
}

extension FlowValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  package init(stringLiteral value: String) { self = .text(value) }
  package init(integerLiteral value: Int) { self = .number(Double(value)) }
  package init(floatLiteral value: Double) { self = .number(value) }
  package init(booleanLiteral value: Bool) { self = .boolean(value) }
  package init(arrayLiteral elements: FlowValue...) { self = .list(elements) }
  package init(dictionaryLiteral elements: (String, FlowValue)...) {
    self = .dictionary(FlowDictionary(elements.map { (key: $0.0, value: $0.1) }))
  }
}

/// A dictionary that keeps its keys in the order they were written (or came in JSON).
package struct FlowDictionary: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  package private(set) var entries: [(key: String, value: FlowValue)]

  package init(_ entries: [(key: String, value: FlowValue)] = []) {
    self.entries = []
    for entry in entries { self[entry.key] = entry.value }
  }

  /// Entries whose keys are known to differ, kept as they are (no search for an earlier equal key).
  init(uniqueKeys entries: [(key: String, value: FlowValue)]) {
    self.entries = entries
  }

  package init(dictionaryLiteral elements: (String, FlowValue)...) {
    self.init(elements.map { (key: $0.0, value: $0.1) })
  }

  package var keys: [String] { entries.map(\.key) }
  package var values: [FlowValue] { entries.map(\.value) }
  package var count: Int { entries.count }
  package var isEmpty: Bool { entries.isEmpty }

  /// The value for `key`; setting a new key appends it, setting nil removes it.
  package subscript(key: String) -> FlowValue? {
    get { entries.first { $0.key == key }?.value }
    set {
      if let index = entries.firstIndex(where: { $0.key == key }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
      } else if let newValue {
        entries.append((key: key, value: newValue))
      }
    }
  }

  package func makeIterator() -> IndexingIterator<[(key: String, value: FlowValue)]> { entries.makeIterator() }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  package func hash(into hasher: inout Hasher) {
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
package struct EntityValue: Sendable, Hashable {
  /// The entity type's display name: "Bookmark".
  package var typeName: String
  /// The Swift value, when the entity was made in this process.
  package var instance: (any AppEntity)?
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

  package init(
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
  package init(typeName: String, instance: any AppEntity) {
    self.typeName = typeName
    self.instance = instance
  }

  /// The id, as a value (a number or text).
  package var id: FlowValue {
    get { given?.id ?? instance?.idValue ?? .nothing }
    set { given = Given(id: newValue, title: title, subtitle: subtitle, properties: given?.properties) }
  }

  /// What a list or prompt shows; what the entity gives where text is wanted.
  package var title: String {
    get { given?.title ?? instance?.displayRepresentation.title ?? "" }
    set { given = Given(id: id, title: newValue, subtitle: subtitle, properties: given?.properties) }
  }

  package var subtitle: String? {
    get { given.map(\.subtitle) ?? instance?.displayRepresentation.subtitle }
    set { given = Given(id: id, title: title, subtitle: newValue, properties: given?.properties) }
  }

  /// The `@Property` values by key, in declaration order: those given, else the instance's, read when
  /// they are asked for (a File reads its size and dates only when a step uses one).
  package var properties: FlowDictionary {
    get { given?.properties ?? instance?.propertyValues ?? FlowDictionary() }
    set { given = Given(id: id, title: title, subtitle: subtitle, properties: newValue) }
  }

  /// One property, without building the others.
  package func property(_ key: String) -> FlowValue? {
    if let properties = given?.properties { return properties[key] }
    return instance?.propertyValue(forKey: key)
  }

  /// The entity's link: its first URL property (a Bookmark's `link`), used where a URL is wanted.
  package var link: URL? {
    for (_, value) in properties { if case .url(let url) = value { return url } }
    return nil
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.typeName == rhs.typeName && lhs.id == rhs.id && lhs.title == rhs.title
      && lhs.subtitle == rhs.subtitle && lhs.properties == rhs.properties
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(typeName)
    hasher.combine(id)
  }
}
