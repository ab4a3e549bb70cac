import FlowDiagnostics
import FoundationEssentials

/// How `filter`, `sort` and conditions compare values: numbers as numbers, dates as dates, the rest as text without
/// regard to case, with digits in text compared as numbers ("item 2" before "item 10").
public enum ValueComparison {
  public static func compare(_ lhs: FlowValue, _ rhs: FlowValue) -> ComparisonResult {
    switch (lhs, rhs) {
    case (.boolean(let a), .boolean(let b)):
      return a == b ? .orderedSame : a ? .orderedDescending : .orderedAscending
    case (.number(let a), .number(let b)):
      return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
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
      if let a = number(lhs), let b = number(rhs) { return compare(.number(a), .number(b)) }
      return TextOrder.compare(lhs.text, rhs.text)
    }
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
