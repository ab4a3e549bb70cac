import FlowDiagnostics
import Testing

struct HexTests {
  @Test func twoDigitsAByte() {
    #expect(Hex.encode([]) == "")
    #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff], uppercase: true) == "000FA0FF")
    #expect(Hex.encode(Array("é".utf8)) == "c3a9")
  }
}
