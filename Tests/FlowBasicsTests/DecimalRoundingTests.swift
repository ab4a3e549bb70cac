import Foundation
import Testing

@testable import FlowBasics

/// DecimalRounding rounds the shortest text of a Double in decimal, as `NSDecimalRound` did on the same
/// text: the same digits for every mode and count of places, over numbers spread across magnitudes.
struct DecimalRoundingTests {
  @Test func roundsAsNSDecimalRound() {
    let mantissas = [
      "1", "1.005", "2.675", "9.995", "5.0005", "4.4999", "1.23456789012345", "7.77777777777777", "9.99999999999999",
      "3.5", "6.25", "1.000000000000001",
    ]
    let modes: [(DecimalRounding.Mode, NSDecimalNumber.RoundingMode)] = [(.plain, .plain), (.up, .up), (.down, .down)]
    var compared = 0
    for mantissa in mantissas {
      for exponent in -10...14 {
        for sign in ["", "-"] {
          let number = Double("\(sign)\(mantissa)e\(exponent)")!
          for places in 0...15 {
            for (ours, theirs) in modes {
              var value = Decimal(string: String(number), locale: Locale(identifier: "en_US_POSIX"))!
              var rounded = Decimal()
              NSDecimalRound(&rounded, &value, places, theirs)
              let expected = Self.padded(NSDecimalNumber(decimal: rounded).description, places: places)
              #expect(
                DecimalRounding(number, places: places, mode: ours).text == expected, "\(number) \(places) \(theirs)")
              compared += 1
            }
          }
        }
      }
    }
    #expect(compared == 28_800)
  }

  /// NSDecimalNumber's text with exactly `places` decimals, and no sign on a zero.
  static func padded(_ text: String, places: Int) -> String {
    var digits = text
    let negative = digits.hasPrefix("-")
    if negative { digits.removeFirst() }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    var fraction = parts.count > 1 ? String(parts[1]) : ""
    fraction += String(repeating: "0", count: max(0, places - fraction.count))
    let body = String(parts[0]) + (places > 0 ? "." + fraction : "")
    return negative && body.contains(where: { $0 != "0" && $0 != "." }) ? "-" + body : body
  }
}
