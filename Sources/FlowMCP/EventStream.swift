/// Server-sent events (the WHATWG `text/event-stream` format), parsed as the bytes arrive: how a
/// Streamable HTTP server sends its requests, notifications and the answer on one open response.
///
/// Lines end with CRLF, LF or CR; `data:` lines accumulate (joined by newlines), `event:` names the
/// event (`message` when absent), `id:` is kept, a line starting with `:` is a comment (keep-alives),
/// and a blank line dispatches the event. An event's data is bounded, like a stdio line: a server cannot
/// make flow hold an unbounded message in memory.
public struct EventStreamParser: Sendable {
  public struct Event: Sendable, Hashable {
    public var type: String
    public var data: String
    public var id: String?
  }

  /// The most bytes one event's data may hold.
  public let maximumEvent: Int
  private var line: [UInt8] = []
  private var data: [UInt8] = []
  private var hasData = false
  private var type = ""
  private var id: String?
  private var lastWasCR = false
  /// Set when an event passed `maximumEvent`; the parser takes nothing more.
  public private(set) var overflowed = false

  public init(maximumEvent: Int = 64 << 20) { self.maximumEvent = maximumEvent }

  /// Feeds bytes; returns the events they complete, in order.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
    var events: [Event] = []
    for byte in bytes where !overflowed {
      if lastWasCR {
        lastWasCR = false
        if byte == 0x0A { continue }
      }
      switch byte {
      case 0x0A, 0x0D:
        lastWasCR = byte == 0x0D
        if let event = endLine() { events.append(event) }
      default:
        line.append(byte)
        if line.count + data.count > maximumEvent { overflowed = true }
      }
    }
    return events
  }

  private mutating func endLine() -> Event? {
    defer { line.removeAll(keepingCapacity: true) }
    if line.isEmpty {
      defer {
        data.removeAll(keepingCapacity: true)
        hasData = false
        type = ""
      }
      guard hasData else { return nil }
      return Event(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), id: id)
    }
    if line.first == UInt8(ascii: ":") { return nil }
    let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
    let field = String(decoding: line[..<colon], as: UTF8.self)
    var value = colon < line.endIndex ? line[(colon + 1)...] : []
    if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
    switch field {
    case "data":
      if hasData { data.append(0x0A) }
      data.append(contentsOf: value)
      hasData = true
    case "event": type = String(decoding: value, as: UTF8.self)
    case "id" where !value.contains(0): id = String(decoding: value, as: UTF8.self)
    default: break  // `retry` and unknown fields: flow does not reconnect streams.
    }
    return nil
  }
}
