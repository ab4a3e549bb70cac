import FlowIntents
import Foundation
import Testing

/// `sort` compares keys made once per item; they order exactly as the values do.
struct ValueComparisonTests {
  static let values: [FlowValue] = [
    .nothing, .text(""), .text("10"), .text("9.5"), .text("item 10"), .text("Item 9"), .text("Élan"), .text("élan"),
    .text("Straße"), .number(9.5), .number(10), .number(-1), .boolean(true), .boolean(false),
    .date(Date(timeIntervalSince1970: 0)), .date(Date(timeIntervalSince1970: 1)), .list([]), .list(["a"]),
    .text("a"), .text("A"), .text("b"),
  ]

  @Test func sortKeysCompareAsTheirValues() {
    for lhs in Self.values {
      for rhs in Self.values {
        let keyed = ValueComparison.compare(ValueComparison.SortKey(lhs), ValueComparison.SortKey(rhs))
        #expect(keyed == ValueComparison.compare(lhs, rhs), "\(lhs) \(rhs)")
      }
    }
    #expect(ValueComparison.compare(.text("item 9"), .text("Item 10")) == .orderedAscending)
    #expect(ValueComparison.compare(.text("10"), .number(9.5)) == .orderedDescending)
  }
}
