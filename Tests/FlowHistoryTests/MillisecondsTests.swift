import FlowSQLite
import Foundation
import Testing

/// Times kept as whole milliseconds since 1970: the nearest one, and back.
struct MillisecondsTests {
  @Test func roundsToTheNearestAndComesBack() {
    #expect(Date(timeIntervalSince1970: 1.0006).millisecondsSince1970 == 1001)
    #expect(Date(timeIntervalSince1970: -1.0006).millisecondsSince1970 == -1001)
    let kept: Int64 = 1_767_225_600_123
    #expect(Date(millisecondsSince1970: kept).millisecondsSince1970 == kept)
    #expect(SQLValue.integer(kept).date == Date(millisecondsSince1970: kept))
    #expect(SQLValue.null.date == Date(timeIntervalSince1970: 0))
  }
}
