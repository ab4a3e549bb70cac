import FlowDiagnostics
import FoundationEssentials

/// How `filter`, `sort` and conditions compare values: numbers as numbers, dates as dates, the rest as text without
/// regard to case, with digits in text compared as numbers ("item 2" before "item 10").
public enum ValueComparison {
  public static func compare(_ lhs: FlowValue, _ rhs: FlowValue) -> ComparisonResult {
    compare(lhs, rhs, numbers: { (number(lhs), number(rhs)) }, texts: { TextOrder.compare(lhs.text, rhs.text) })
  }

  /// A value with what comparing it needs worked out once, for a value compared many times (`sort`):
  /// comparing two keys is comparing their values.
  public struct SortKey {
    let value: FlowValue
    let number: Double?
    let text: TextOrder.Key

    public init(_ value: FlowValue) {
      self.value = value
      number = ValueComparison.number(value)
      text = TextOrder.Key(value.text)
    }
  }

  public static func compare(_ lhs: SortKey, _ rhs: SortKey) -> ComparisonResult {
    compare(
      lhs.value, rhs.value, numbers: { (lhs.number, rhs.number) }, texts: { TextOrder.compare(lhs.text, rhs.text) })
  }

  private static func compare(
    _ lhs: FlowValue, _ rhs: FlowValue, numbers: () -> (Double?, Double?), texts: () -> ComparisonResult
  ) -> ComparisonResult {
    switch (lhs, rhs) {
    case (.boolean(let a), .boolean(let b)):
      return a == b ? .orderedSame : a ? .orderedDescending : .orderedAscending
    case (.number(let a), .number(let b)):
      return order(a, b)
    case (.date(let a), .date(let b)):
      return a.compare(b)
    case (.nothing, .nothing):
      return .orderedSame
    // Missing values sort first, and equal an empty text or list: `${x} == ""` holds when x is nothing.
    case (.nothing, _):
      return rhs.isEmpty ? .orderedSame : .orderedAscending
    case (_, .nothing):
      return lhs.isEmpty ? .orderedSame : .orderedDescending
    default:
      if case (let a?, let b?) = numbers() { return order(a, b) }
      return texts()
    }
  }

  private static func order(_ a: Double, _ b: Double) -> ComparisonResult {
    a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
  }

  public static func equals(_ lhs: FlowValue, _ rhs: FlowValue) -> Bool {
    compare(lhs, rhs) == .orderedSame
  }

  /// A number, from a number or from text that reads as one (a JSON field, a YAML literal).
  private static func number(_ value: FlowValue) -> Double? {
    switch value {
    case .number(let number): number
    case .text(let text): Coercion.parseNumber(text)
    default: nil
    }
  }

  /// The value `filter` or `sort` looks at: the item itself, or one of its properties.
  public static func subject(of item: FlowValue, property: String?) throws -> FlowValue {
    guard let property else { return item }
    if let value = item.property(named: property) { return value }
    if case .dictionary = item { return .nothing }  // a key that some records lack
    throw AppIntentError.failed(
      "\(item.typeName) has no property '\(property)'",
      help: Suggestion.help(for: property, among: item.propertyNames))
  }
}
