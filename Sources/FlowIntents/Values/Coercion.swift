import FlowDiagnostics
import FlowModel
import FoundationEssentials

/// The coercion table of SPEC §3, Shortcuts' content graph, in one place.
///
/// | from \ to | text | number | boolean | date | URL | list | dictionary |
/// |---|---|---|---|---|---|---|---|
/// | text | itself | parsed | `true`/`false` | parsed | parsed | one item | parsed JSON |
/// | number | `3`, `1.1` | itself | 0 / 1 | — | — | one item | — |
/// | boolean | `true`/`false` | 1 / 0 | itself | — | — | one item | — |
/// | entity | its title | — | — | — | its link | one item | its properties |
/// | list | items' text, one per line | refused: `for-each` / `get-item` |||| itself, items coerced | — |
///
/// A list written inside other text (`"tags: ${tags}"`) reads as its items joined by ", " (``text(of:)``);
/// a whole list given where text is wanted becomes its items one per line, as Shortcuts makes it.
/// Every parameter, property and input goes through ``coerce(_:to:)``; entity parameters add a
/// lookup through the entity's query on top (``IntentValueConvertible/resolve(_:in:)``).
public enum Coercion {
  /// Converts `value` to `type`, or explains why it cannot.
  public static func coerce(_ value: FlowValue, to type: ValueType) throws(CoercionError) -> FlowValue {
    switch type {
    case .any:
      return value
    case .nothing:
      return .nothing
    case .list(let element):
      switch value {
      case .list(let items):
        var coerced: [FlowValue] = []
        coerced.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
          do {
            coerced.append(try coerce(item, to: element))
          } catch {
            throw CoercionError(message: "item \(index + 1): \(error.message)", help: error.help)
          }
        }
        return .list(coerced)
      case .nothing:
        return .list([])
      default:
        return .list([try coerce(value, to: element)])
      }
    case .text:
      if case .list(let items) = value { return .text(items.map(text(of:)).joined(separator: "\n")) }
      return .text(text(of: value))
    default:
      break
    }
    if case .list(let items) = value {
      // One item is still a list: the person asked for a list somewhere; say how to take one.
      throw CoercionError.listWhereOneExpected(count: items.count, expected: type)
    }
    switch type {
    case .number, .integer:
      let number: Double
      switch value {
      case .number(let n): number = n
      case .boolean(let b): number = b ? 1 : 0
      case .text(let text):
        guard let parsed = parseNumber(text) else { throw .expected(type, got: value) }
        number = parsed
      default: throw .expected(type, got: value)
      }
      if type == .integer, number != number.rounded() || !number.isFinite {
        throw .expected(.integer, got: .number(number))
      }
      return .number(number)
    case .boolean:
      switch value {
      case .boolean: return value
      case .number(0): return .boolean(false)
      case .number(1): return .boolean(true)
      case .text(let text):
        switch text.trimmingWhitespace().lowercased() {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default: throw .expected(type, got: value)
        }
      default: throw .expected(type, got: value)
      }
    case .date:
      switch value {
      case .date: return value
      case .text(let text):
        guard let date = DateParsing.parse(text) else {
          throw .expected(type, got: value)
        }
        return .date(date)
      default: throw .expected(type, got: value)
      }
    case .url:
      switch value {
      case .url: return value
      case .text(let text):
        guard let url = parseURL(text) else { throw .expected(type, got: value) }
        return .url(url)
      case .entity(let entity):
        guard let link = entity.link else { throw .expected(type, got: value) }
        return .url(link)
      default: throw .expected(type, got: value)
      }
    case .duration:
      switch value {
      case .number(let seconds) where seconds >= 0 && seconds <= DurationParsing.longestSeconds: return value
      case .number(let seconds) where seconds > DurationParsing.longestSeconds: throw .tooLong(value)
      case .text(let text):
        switch DurationParsing.read(text) {
        case .success(let duration): return .number(DurationParsing.seconds(of: duration))
        case .failure(.tooLong): throw .tooLong(value)
        case .failure(.notADuration): throw .expected(type, got: value)
        }
      default: throw .expected(type, got: value)
      }
    case .dictionary:
      switch value {
      case .dictionary: return value
      case .entity(let entity): return .dictionary(entity.properties)
      case .text(let text):
        if case .dictionary(let dictionary)? = try? JSON.parse(text) { return .dictionary(dictionary) }
        throw .expected(type, got: value)
      default: throw .expected(type, got: value)
      }
    case .entity(let entityType):
      if case .entity(let entity) = value, entity.typeName == entityType.name { return value }
      throw .expected(type, got: value)
    case .enumeration(let enumType):
      guard case .text(let text) = value else { throw .expected(type, got: value) }
      guard let match = enumType.match(text) else {
        let ids = enumType.cases.map(\.id)
        let expected = "one of \(List.or(ids.map { "'\($0)'" }))"
        var error = CoercionError(
          message: "expected \(expected), got \(value.quoted)",
          help: Suggestion.closest(to: text, among: ids).map { "did you mean '\($0)'?" }
        )
        error.expected = expected
        error.got = value.quoted
        throw error
      }
      return .text(match.id)
    case .text, .list, .any, .nothing:
      return value  // handled above
    }
  }

  /// Whether a value of type `from` can become `to`, as far as the types tell before a run: the same
  /// table as ``coerce(_:to:)``, read by the checker. An entity parameter also takes an id or text, which
  /// its query looks up (``IntentValueConvertible/resolve(_:in:)``); a list never becomes one value.
  public static func compatibility(of from: ValueType, to type: ValueType) -> Compatibility {
    switch (from, type) {
    case (_, .any), (_, .nothing), (_, .text): return .always
    case (.any, _), (.nothing, _): return .sometimes
    case (.list(let element), .list(let wanted)): return compatibility(of: element, to: wanted)
    case (_, .list(let wanted)): return compatibility(of: from, to: wanted)
    case (.list, _): return .never
    default: break
    }
    switch type {
    case .number, .integer:
      switch from {
      case .integer, .boolean: return .always
      case .number: return type == .number ? .always : .sometimes
      case .text, .enumeration, .duration: return .sometimes
      default: return .never
      }
    case .boolean:
      switch from {
      case .boolean: return .always
      case .number, .integer, .text, .enumeration: return .sometimes
      default: return .never
      }
    case .date:
      switch from {
      case .date: return .always
      case .text: return .sometimes
      default: return .never
      }
    case .url:
      switch from {
      case .url: return .always
      case .text: return .sometimes
      case .entity(let entity): return entity.properties.contains { $0.type == .url } ? .sometimes : .never
      default: return .never
      }
    case .duration:
      switch from {
      case .number, .integer, .text, .duration: return .sometimes
      default: return .never
      }
    case .dictionary:
      switch from {
      case .dictionary, .entity: return .always
      case .text: return .sometimes
      default: return .never
      }
    case .entity(let wanted):
      switch from {
      case .entity(let given): return given == wanted ? .always : .never
      case .text, .number, .integer, .enumeration: return .sometimes
      default: return .never
      }
    case .enumeration(let wanted):
      switch from {
      case .enumeration(let given) where given == wanted: return .always
      case .text, .enumeration: return .sometimes
      default: return .never
      }
    case .text, .list, .any, .nothing:
      return .always  // handled above
    }
  }

  /// How sure a conversion is before the value is known.
  public enum Compatibility: Sendable, Hashable {
    /// Every value of the type converts.
    case always
    /// Some values convert (text that reads as a number, an id that names an entity).
    case sometimes
    /// No value of the type converts.
    case never
  }

  /// The text of a value: entity → its title, number → `3` or `1.1`, list → items joined by ", ".
  public static func text(of value: FlowValue) -> String {
    switch value {
    case .text(let text): text
    case .number(let number): FlowValue.formatNumber(number)
    case .boolean(let bool): bool ? "true" : "false"
    case .date(let date): DateParsing.format(date)
    case .url(let url): url.absoluteString
    case .list(let items): items.map(text(of:)).joined(separator: ", ")
    case .dictionary: JSON.encode(value)
    case .entity(let entity): entity.title
    case .nothing: ""
    }
  }

  /// A number written in text: `42`, `-1.5`, `1e3`, surrounding spaces allowed.
  public static func parseNumber(_ text: String) -> Double? {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty, trimmed.lowercased() != "nan", !trimmed.lowercased().contains("inf"),
      let number = Double(trimmed)
    else { return nil }
    return number
  }

  /// A URL written in text. It needs a scheme (`https://…`, `mailto:…`); a bare host such as
  /// `example.com/page` gets `https://`, as Shortcuts' URL detection does.
  public static func parseURL(_ text: String) -> URL? {
    let trimmed = text.trimmingWhitespaceAndNewlines()
    guard !trimmed.isEmpty, !trimmed.contains(where: \.isWhitespace) else { return nil }
    if let colon = trimmed.firstIndex(of: ":"),
      trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
      trimmed.first?.isLetter == true
    {
      guard let url = URL(string: trimmed), url.scheme != nil else { return nil }
      if ["http", "https"].contains(url.scheme?.lowercased()), (url.host ?? "").isEmpty { return nil }
      return url
    }
    let host = trimmed.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard host.contains("."), !host.hasPrefix("."), !host.hasSuffix("."),
      host.allSatisfy({ $0.isLetter || $0.isNumber || "-.:".contains($0) })
    else { return nil }
    return URL(string: "https://" + trimmed)
  }
}

/// Why a value cannot become the wanted type, in words a person reads: "expected a number, got 'lots'".
public struct CoercionError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// What would fix it, shown as `= help:`.
  public var help: String?
  /// The two halves of an "expected …, got …" message, so that a parameter's name can go between them.
  public var expected: String?
  public var got: String?

  public init(message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  public var description: String { message }

  /// "expected a number, got 'lots'", with how to write one as help unless `help` says otherwise.
  public static func expected(_ type: ValueType, got value: FlowValue, help: String? = nil) -> CoercionError {
    var error = CoercionError(
      message: "expected \(article(for: type)), got \(value.quoted)", help: help ?? howToWrite(type))
    error.expected = article(for: type)
    error.got = value.quoted
    return error
  }

  /// "expected a number from 1 or 'all', got 'lots'": for types that describe what they take in words.
  public static func expected(_ description: String, got value: FlowValue, help: String? = nil) -> CoercionError {
    var error = CoercionError(message: "expected \(description), got \(value.quoted)", help: help)
    error.expected = description
    error.got = value.quoted
    return error
  }

  /// The message about one parameter: "expected a number for 'max-results', got 'lots'".
  public func message(forParameter key: String) -> String {
    if let expected, let got { return "expected \(expected) for '\(key)', got \(got)" }
    return "'\(key)': \(message)"
  }

  /// A list where one value is wanted: never guessed, since taking the first item silently loses data.
  /// A duration past the longest flow takes (a number that large would overflow every deadline).
  public static func tooLong(_ value: FlowValue) -> CoercionError {
    CoercionError(message: "\(value.quoted) is too long: the longest duration is \(DurationParsing.longestText)")
  }

  public static func listWhereOneExpected(count: Int, expected type: ValueType) -> CoercionError {
    CoercionError(
      message: "expected one \(type.name), got a list of \(Count.of(count, "item"))",
      help: "use 'for-each' to handle each item, or 'get-item' to pick one"
    )
  }

  /// How to write a value of `type` in a workflow or on the command line, for types whose spelling a
  /// person may not guess; nil where the message already says it all.
  static func howToWrite(_ type: ValueType) -> String? {
    switch type {
    case .number: "write a number, like 12 or 2.5"
    case .integer: "write a whole number, like 12"
    case .boolean: "write 'true' or 'false'"
    case .date: "write a date as '2026-11-21' or '2026-11-21T14:30:00Z'"
    case .url: "write a web address, like 'https://example.com' or 'example.com/page'"
    case .duration: "write a duration as '30s', '2m', '1h30m' or '500ms'"
    case .dictionary: "write a mapping of names to values, like '{title: Swift, stars: 5}'"
    case .text, .list, .any, .nothing, .entity, .enumeration: nil
    }
  }

  /// "a number", "an integer", "a URL", "a Bookmark".
  public static func article(for type: ValueType) -> String {
    switch type {
    case .text: "text"
    case .number: "a number"
    case .integer: "a whole number"
    case .boolean: "'true' or 'false'"
    case .date: "a date"
    case .url: "a URL"
    case .duration: "a duration"
    case .dictionary: "a dictionary"
    case .list(let element): "a list of \(element.name)"
    case .any: "a value"
    case .nothing: "nothing"
    case .entity(let entity): "\("AEIOU".contains(entity.name.prefix(1)) ? "an" : "a") \(entity.name)"
    case .enumeration(let enumeration): "a \(enumeration.name)"
    }
  }
}
