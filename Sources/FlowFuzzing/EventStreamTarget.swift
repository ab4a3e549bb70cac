import FlowMCP

/// A server's `text/event-stream` answer as the MCP client reads it (``EventStreamParser``, then each
/// `message` event's data as a JSON-RPC message). The bytes arrive whole and again in pieces whose sizes
/// the input picks: the events must not depend on where the network cut them.
enum EventStreamTarget {
  static let maximumEvent = 1024

  static func run(_ bytes: [UInt8]) {
    var whole = EventStreamParser(maximumEvent: maximumEvent)
    let events = whole.feed(bytes)
    var pieces = EventStreamParser(maximumEvent: maximumEvent)
    var piecewise: [EventStreamParser.Event] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + 1 + Int(bytes[start] % 7))
      piecewise += pieces.feed(bytes[start..<end])
      start = end
    }
    guard piecewise == events, pieces.overflowed == whole.overflowed else {
      fatalError("the events depend on how the bytes were cut: \(events) against \(piecewise)")
    }
    for event in events where event.type == "message" {
      if let message = try? RPCMessage.decode(event.data) { _ = message.encoded() }
    }
  }
}
