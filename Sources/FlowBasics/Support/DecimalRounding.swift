import FlowIntents
import Foundation

/// Rounding as a person reads the number: in decimal, so 2.675 (2.67499… as a Double) rounds to 2.68.
enum DecimalRounding {
  /// `number` rounded to `places` decimals; `mode` `.plain` rounds halves away from zero, `.up` and
  /// `.down` toward positive and negative infinity.
  static func round(_ number: Double, places: Int, mode: NSDecimalNumber.RoundingMode) -> Decimal {
    // The shortest text that reads back as the Double, which is what the workflow wrote.
    var value =
      Decimal(string: FlowValue.formatNumber(number), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(number)
    var rounded = Decimal()
    NSDecimalRound(&rounded, &value, places, mode)
    return rounded
  }

  /// `value` with exactly `places` decimals after a '.', and ',' between thousands when `grouped`.
  static func text(_ value: Decimal, places: Int, grouped: Bool) -> String {
    var digits = NSDecimalNumber(decimal: value).description(withLocale: Locale(identifier: "en_US_POSIX"))
    let negative = digits.hasPrefix("-")
    if negative { digits.removeFirst() }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    var whole = String(parts[0])
    var fraction = parts.count > 1 ? String(parts[1]) : ""
    fraction += String(repeating: "0", count: max(0, places - fraction.count))
    fraction = String(fraction.prefix(places))
    if grouped {
      var groups: [Substring] = []
      var rest = Substring(whole)
      while rest.count > 3 {
        groups.insert(rest.suffix(3), at: 0)
        rest = rest.dropLast(3)
      }
      groups.insert(rest, at: 0)
      whole = groups.joined(separator: ",")
    }
    let sign = negative && (whole.contains { $0 != "0" && $0 != "," } || fraction.contains { $0 != "0" }) ? "-" : ""
    return sign + whole + (places > 0 ? "." + fraction : "")
  }
}
