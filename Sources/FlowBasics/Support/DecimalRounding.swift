import FlowIntents

/// Rounding as a person reads the number: in decimal, on the digits of the shortest text that reads back as
/// the Double (which is what the workflow wrote), so 2.675 (2.67499… as a Double) rounds to 2.68.
struct DecimalRounding {
  /// How halves and the digits dropped move the last digit kept.
  enum Mode {
    /// To the nearest; halves away from zero.
    case plain
    /// Toward positive infinity.
    case up
    /// Toward negative infinity.
    case down
  }

  var negative: Bool
  /// The digits before the point, without leading zeros ("" for zero), and exactly the places after it.
  var whole: [UInt8]
  var fraction: [UInt8]

  /// `number` (finite) rounded to `places` decimals.
  init(_ number: Double, places: Int, mode: Mode) {
    let (negative, digits, point) = Self.digits(of: number)
    // Digits before the point, then after it, with zeros where the shortest text had none.
    let whole =
      point > 0 ? Array((digits + Array(repeating: 0, count: max(0, point - digits.count))).prefix(point)) : []
    let after = point >= 0 ? Array(digits.dropFirst(point)) : Array(repeating: 0, count: -point) + digits
    var kept = Array(after.prefix(places))
    kept += Array(repeating: 0, count: places - kept.count)
    let dropped = after.dropFirst(places)
    let carries =
      switch mode {
      case .plain: (dropped.first ?? 0) >= 5
      case .up: !negative && dropped.contains { $0 != 0 }
      case .down: negative && dropped.contains { $0 != 0 }
      }
    var all = whole + kept
    if carries {
      var index = all.count - 1
      while index >= 0 && all[index] == 9 {
        all[index] = 0
        index -= 1
      }
      if index >= 0 { all[index] += 1 } else { all.insert(1, at: 0) }
    }
    self.whole = Array(all.dropLast(places).drop { $0 == 0 })
    self.fraction = Array(all.suffix(places))
    self.negative = negative && (!self.whole.isEmpty || fraction.contains { $0 != 0 })
  }

  /// The sign, the decimal digits without leading zeros, and where the point goes among them (0: before
  /// the first; negative: that many zeros before the first), from Swift's shortest round-tripping text
  /// (`2.675`, `1e-07`, `1.2345e+20`).
  private static func digits(of number: Double) -> (negative: Bool, digits: [UInt8], point: Int) {
    var text = Substring(FlowValue.formatNumber(abs(number)))
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      exponent = Int(text[text.index(after: e)...]) ?? 0
      text = text[..<e]
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let integer = parts[0].utf8.map { $0 - UInt8(ascii: "0") }
    let decimals = parts.count > 1 ? parts[1].utf8.map { $0 - UInt8(ascii: "0") } : []
    var digits = integer + decimals
    var point = integer.count + exponent
    while let first = digits.first, first == 0 {
      digits.removeFirst()
      point -= 1
    }
    return (number < 0 || (number == 0 && number.sign == .minus), digits, point)
  }

  /// The number as plain decimal text, `-12.50`; what `round-number` returns reads it as the nearest Double.
  var text: String { text(grouped: false) }

  /// The value with exactly its places after a '.', and ',' between thousands when `grouped`.
  func text(grouped: Bool) -> String {
    var integer = whole.isEmpty ? "0" : String(decoding: whole.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    if grouped {
      var groups: [Substring] = []
      var rest = Substring(integer)
      while rest.count > 3 {
        groups.insert(rest.suffix(3), at: 0)
        rest = rest.dropLast(3)
      }
      groups.insert(rest, at: 0)
      integer = groups.joined(separator: ",")
    }
    let decimals = String(decoding: fraction.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    return (negative ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + decimals)
  }
}
