import FlowHistory
import Foundation
import Testing

/// Run history's timestamps read as Foundation's `ISO8601DateFormatter` wrote them before flow stopped
/// linking it, to the millisecond and its rounding.
struct HistoryTextTests {
  @Test func timestampMatchesISO8601DateFormatter() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var instants: [Double] = [
      0, 1, 0.9995, 0.9999, 0.0005, -1.5, -0.0004, 1_764_403_201.25, 1_764_403_201.2505, 1_764_403_201.9999,
      951_782_400, 951_868_800, 4_102_444_800, 253_402_300_799.999, 1e9 + 0.444_999_9,
    ]
    // A fixed sequence (a linear congruential generator) of instants up to 2096, and of whole
    // milliseconds and a half, where rounding decides.
    var state: UInt64 = 0x5DEE_CE66
    for index in 0..<100_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let fraction = Double(state >> 11) / Double(1 << 53)
      instants.append(index.isMultiple(of: 2) ? fraction * 4e9 : (fraction * 4e12).rounded(.down) / 1000 + 0.0005)
    }
    for instant in instants {
      let date = Date(timeIntervalSince1970: instant)
      #expect(HistoryText.timestamp(date) == formatter.string(from: date), "\(instant)")
    }
  }

  @Test func durationWordsKeepTheirFormat() {
    #expect(HistoryText.duration(0.00034) == "0.3 ms")
    #expect(HistoryText.duration(12.44) == "12.4 s")
    #expect(HistoryText.duration(185) == "3 min 05 s")
    #expect(HistoryText.duration(7620) == "2 h 07 min")
  }
}
