import FlowModel
import FoundationEssentials

/// A Swift type that parameters and properties may have: it names its ``ValueType`` and converts to and
/// from ``FlowValue`` through the coercion table.
///
/// The counterpart of swift-argument-parser's `ExpressibleByArgument`. Text, numbers, booleans, URLs,
/// dates, durations, lists, optionals, dictionaries, `FlowValue` itself, ``AppEnum``s and ``AppEntity``s
/// conform.
public protocol IntentValueConvertible: Sendable {
  /// The declared type, for the checker, `flow actions` and messages.
  static var valueType: ValueType { get }
  /// Converts a value already in hand (no lookup); throws a readable reason when it cannot.
  init(flowValue: FlowValue) throws(CoercionError)
  /// The value to pass on to later steps.
  var flowValue: FlowValue { get }
  /// Converts a value that may need a lookup: entities found by id or by text through their query.
  static func resolve(_ value: FlowValue, in context: IntentContext) async throws -> Self
  /// The value of an optional type when nothing was given (`nil`), which tells optional parameters from
  /// required ones; nil for a type that is not optional. A requirement rather than a cast to a protocol:
  /// the first cast of each type makes the Swift runtime scan every conformance in the program, a cost
  /// at the start of every run (Performance.md).
  static var noValue: Self? { get }
}

extension IntentValueConvertible {
  public static var noValue: Self? { nil }

  public static func resolve(_ value: FlowValue, in context: IntentContext) async throws -> Self {
    try Self(flowValue: value)
  }
}

extension String: IntentValueConvertible {
  public static var valueType: ValueType { .text }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .text(let text) = try Coercion.coerce(flowValue, to: .text) else {
      throw .expected(.text, got: flowValue)
    }
    self = text
  }
  public var flowValue: FlowValue { .text(self) }
}

extension Double: IntentValueConvertible {
  public static var valueType: ValueType { .number }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .number(let number) = try Coercion.coerce(flowValue, to: .number) else {
      throw .expected(.number, got: flowValue)
    }
    self = number
  }
  public var flowValue: FlowValue { .number(self) }
}

extension Int: IntentValueConvertible {
  public static var valueType: ValueType { .integer }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .number(let number) = try Coercion.coerce(flowValue, to: .integer), let int = Int(exactly: number) else {
      throw .expected(.integer, got: flowValue)
    }
    self = int
  }
  public var flowValue: FlowValue { .number(Double(self)) }
}

extension Bool: IntentValueConvertible {
  public static var valueType: ValueType { .boolean }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .boolean(let bool) = try Coercion.coerce(flowValue, to: .boolean) else {
      throw .expected(.boolean, got: flowValue)
    }
    self = bool
  }
  public var flowValue: FlowValue { .boolean(self) }
}

extension URL: IntentValueConvertible {
  public static var valueType: ValueType { .url }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .url(let url) = try Coercion.coerce(flowValue, to: .url) else { throw .expected(.url, got: flowValue) }
    self = url
  }
  public var flowValue: FlowValue { .url(self) }
}

extension Date: IntentValueConvertible {
  public static var valueType: ValueType { .date }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .date(let date) = try Coercion.coerce(flowValue, to: .date) else {
      throw .expected(.date, got: flowValue)
    }
    self = date
  }
  public var flowValue: FlowValue { .date(self) }
}

extension Duration: IntentValueConvertible {
  public static var valueType: ValueType { .duration }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .number(let seconds) = try Coercion.coerce(flowValue, to: .duration) else {
      throw .expected(.duration, got: flowValue)
    }
    self = DurationParsing.duration(seconds: seconds)
  }
  /// Written as it is parsed (`1m30s`), so it reads well in text and converts back.
  public var flowValue: FlowValue { .text(DurationParsing.format(self)) }
}

extension UUID: IntentValueConvertible {
  /// Written as text; entities identified by UUID (App Intents' examples) need it as their id type.
  public static var valueType: ValueType { .text }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .text(let text) = try Coercion.coerce(flowValue, to: .text), let uuid = UUID(uuidString: text) else {
      throw CoercionError(message: "expected a UUID, got \(flowValue.quoted)")
    }
    self = uuid
  }
  public var flowValue: FlowValue { .text(uuidString) }
}

extension FlowValue: IntentValueConvertible {
  public static var valueType: ValueType { .any }
  public init(flowValue: FlowValue) throws(CoercionError) { self = flowValue }
  public var flowValue: FlowValue { self }
}

extension FlowDictionary: IntentValueConvertible {
  public static var valueType: ValueType { .dictionary }
  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .dictionary(let dictionary) = try Coercion.coerce(flowValue, to: .dictionary) else {
      throw .expected(.dictionary, got: flowValue)
    }
    self = dictionary
  }
  public var flowValue: FlowValue { .dictionary(self) }
}

extension Array: IntentValueConvertible where Element: IntentValueConvertible {
  public static var valueType: ValueType { .list(Element.valueType) }

  public init(flowValue: FlowValue) throws(CoercionError) {
    let items: [FlowValue]
    switch flowValue {
    case .list(let list): items = list
    case .nothing: items = []
    default: items = [flowValue]
    }
    var converted: [Element] = []
    for (index, item) in items.enumerated() {
      do {
        converted.append(try Element(flowValue: item))
      } catch {
        throw CoercionError(
          message: items.count > 1 ? "item \(index + 1): \(error.message)" : error.message, help: error.help)
      }
    }
    self = converted
  }

  // A closure, not `map(\.flowValue)`: a key path is projected through the runtime for every item, a
  // tenth of what handing on 100,000 Files from `get-folder-contents` cost.
  public var flowValue: FlowValue { .list(map { $0.flowValue }) }

  /// One value where a list is wanted becomes a one-item list; each item is resolved on its own.
  public static func resolve(_ value: FlowValue, in context: IntentContext) async throws -> Self {
    switch value {
    case .list(let items):
      var resolved: [Element] = []
      for item in items { resolved.append(try await Element.resolve(item, in: context)) }
      return resolved
    case .nothing:
      return []
    default:
      return [try await Element.resolve(value, in: context)]
    }
  }
}

extension Optional: IntentValueConvertible where Wrapped: IntentValueConvertible {
  public static var valueType: ValueType { Wrapped.valueType }

  public init(flowValue: FlowValue) throws(CoercionError) {
    self = flowValue == .nothing ? nil : try Wrapped(flowValue: flowValue)
  }

  public var flowValue: FlowValue { self?.flowValue ?? .nothing }

  public static func resolve(_ value: FlowValue, in context: IntentContext) async throws -> Self {
    value == .nothing ? nil : try await Wrapped.resolve(value, in: context)
  }

  public static var noValue: Self? { .some(nil) }
}
