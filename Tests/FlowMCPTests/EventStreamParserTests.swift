import Testing

@testable import FlowMCP

struct EventStreamParserTests {
  @Test func eventsSplitAnywhereAndEveryLineEnding() {
    let text =
      ": keep-alive\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\nid: 7\r\n\r\ndata: two\n\ndata:three\r\rretry: 10\n"
    // Fed a byte at a time, as a slow network would.
    var parser = EventStreamParser()
    var events: [EventStreamParser.Event] = []
    for byte in Array(text.utf8) { events += parser.feed([byte]) }
    #expect(
      events == [
        .init(type: "message", data: "{\"a\":\n1}", id: "7"), .init(type: "message", data: "two", id: "7"),
        .init(type: "message", data: "three", id: "7"),
      ])
  }

  @Test func anEventLongerThanTheLimitStopsTheParser() {
    var parser = EventStreamParser(maximumEvent: 8)
    #expect(parser.feed(Array("data: 0123456789\n\n".utf8)).isEmpty)
    #expect(parser.overflowed)
  }
}
