import Testing

@testable import FlowSystem

/// Messages from the bus as the connection reads them: whole ones, cut ones, and ones that would
/// never finish reading.
struct DBusMessageTests {
  /// A little-endian method return of `signature` with `body`, serial 1.
  static func message(signature: String, body: [UInt8]) -> [UInt8] {
    let fields: [UInt8] = [8, 1, UInt8(ascii: "g"), 0, UInt8(signature.utf8.count)] + Array(signature.utf8) + [0]
    var bytes: [UInt8] = [UInt8(ascii: "l"), 2, 0, 1]
    for number in [UInt32(body.count), 1, UInt32(fields.count)] {
      withUnsafeBytes(of: number.littleEndian) { bytes += $0 }
    }
    bytes += fields
    while bytes.count % 8 != 0 { bytes.append(0) }
    return bytes + body
  }

  @Test func readsWholeMessagesAndWaitsForACutOne() throws {
    let reply = Self.message(signature: "s", body: [2, 0, 0, 0, UInt8(ascii: "h"), UInt8(ascii: "i"), 0])
    var buffer = reply + reply.prefix(20)
    let first = try DBusMessage.next(from: &buffer)
    #expect(first?.body == [.string("hi")])
    #expect(try DBusMessage.next(from: &buffer) == nil)
    #expect(buffer.count == 20)
  }

  /// An array of empty structs (which the specification forbids) takes no bytes per element: reading
  /// it went round forever.
  @Test func refusesAnArrayOfElementsThatTakeNoBytes() {
    var buffer = Self.message(signature: "a()", body: [8, 0, 0, 0] + Array(repeating: 0, count: 12))
    let error = #expect(throws: DBusError.self) { try DBusMessage.next(from: &buffer) }
    #expect(error == .protocolError("an array of '()', which takes no bytes"))
    #expect(DBusStream.read(Self.message(signature: "a()", body: [8] + Array(repeating: 0, count: 15))).problem != nil)
  }

  /// A descriptor (`h`, logind's `Inhibit` answers with one) is on the wire an index into those the
  /// message carries beside its bytes.
  @Test func aDescriptorIsReadAsItsIndex() throws {
    var buffer = Self.message(signature: "hs", body: [0, 0, 0, 0, 2, 0, 0, 0, UInt8(ascii: "o"), UInt8(ascii: "k"), 0])
    let message = try #require(try DBusMessage.next(from: &buffer))
    #expect(message.body == [.unixFD(0), .string("ok")])
    #expect(message.body.map(\.signature) == ["h", "s"])
  }

  @Test func propertiesChangedIsReadAsItsInterfaceValuesAndInvalidatedNames() throws {
    var signal = DBusMessage.methodCall(
      destination: "x", path: "/org/freedesktop/UPower", interface: "org.freedesktop.DBus.Properties",
      member: "PropertiesChanged",
      body: [
        .string("org.freedesktop.UPower"),
        .array(element: "{sv}", [.dictEntry(.string("OnBattery"), .variant(.boolean(true)))]),
        .array(element: "s", [.string("LidIsClosed")]),
      ])
    signal.kind = .signal
    var buffer = signal.encoded()
    let read = try #require(try DBusMessage.next(from: &buffer))
    let change = try #require(read.propertiesChanged)
    #expect(change.interface == "org.freedesktop.UPower")
    #expect(change.changed["OnBattery"]?.bool == true)
    #expect(change.invalidated == ["LidIsClosed"])
  }
}
