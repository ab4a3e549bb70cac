import FoundationEssentials

/// A value of the D-Bus type system, as much of it as flow's calls send and receive.
public indirect enum DBusValue: Sendable, Hashable {
  case byte(UInt8)
  case boolean(Bool)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// An array with the signature of its elements (needed to write an empty one).
  case array(element: String, [DBusValue])
  case `struct`([DBusValue])
  /// A dictionary entry (`{kv}`), only ever inside an array.
  case dictEntry(DBusValue, DBusValue)
  case variant(DBusValue)
  /// A file descriptor (`h`): on the wire, its index among those the message carries
  /// (``DBusMessage/unixFDs``).
  case unixFD(UInt32)

  /// The value's type signature.
  public var signature: String {
    switch self {
    case .byte: "y"
    case .boolean: "b"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .array(let element, _): "a" + element
    case .struct(let fields): "(" + fields.map(\.signature).joined() + ")"
    case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
    case .variant: "v"
    case .unixFD: "h"
    }
  }

  /// The value inside a variant (through any number of them), or the value itself: properties arrive as
  /// variants, and a caller asks for what they hold.
  public var unwrapped: DBusValue {
    if case .variant(let inner) = self { return inner.unwrapped }
    return self
  }

  public var string: String? {
    switch unwrapped {
    case .string(let text), .objectPath(let text), .signature(let text): text
    default: nil
    }
  }

  public var uint32: UInt32? {
    if case .uint32(let number) = unwrapped { return number }
    return nil
  }

  public var bool: Bool? {
    if case .boolean(let value) = unwrapped { return value }
    return nil
  }

  /// Any number, as a double: services differ in which width they send a count or a percentage in.
  public var number: Double? {
    switch unwrapped {
    case .byte(let value): Double(value)
    case .int32(let value): Double(value)
    case .uint32(let value): Double(value)
    case .int64(let value): Double(value)
    case .uint64(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// An array's elements.
  public var items: [DBusValue]? {
    if case .array(_, let items) = unwrapped { return items }
    return nil
  }

  /// A byte array (`ay`): an SSID, a mount point.
  public var bytes: [UInt8]? {
    guard case .array("y", let items) = unwrapped else { return nil }
    return items.compactMap { if case .byte(let byte) = $0 { byte } else { nil } }
  }

  /// A dictionary with string or object-path keys (`a{sv}`, `a{oa{sa{sv}}}`), the later of two equal keys kept.
  public var dictionary: [String: DBusValue]? {
    guard let items else { return nil }
    var result: [String: DBusValue] = [:]
    for item in items {
      guard case .dictEntry(let key, let value) = item, let name = key.string else { return nil }
      result[name] = value
    }
    return result
  }
}

/// One D-Bus message (the specification's "Message Protocol"), little-endian.
public struct DBusMessage: Sendable {
  public enum Kind: UInt8, Sendable {
    case methodCall = 1, methodReturn = 2, error = 3, signal = 4
  }

  /// The header field codes this client reads and writes.
  enum Field: UInt8, Sendable {
    case path = 1, interface = 2, member = 3, errorName = 4, replySerial = 5, destination = 6, sender = 7
    case signature = 8, unixFDs = 9
  }

  /// Flag: the bus may start the destination service (activation) if nobody owns the name yet.
  static let noAutoStart: UInt8 = 0x2
  /// Flag: the sender wants no reply (a call without a handler, an `AddMatch`).
  static let noReplyExpected: UInt8 = 0x1

  public var kind: Kind
  var flags: UInt8 = 0
  var serial: UInt32 = 0
  var fields: [Field: DBusValue] = [:]
  public var body: [DBusValue] = []
  /// The descriptors that came with the message, in order (a ``DBusValue/unixFD(_:)`` is an index into
  /// them). Received ones are close-on-exec; see ``DBusConnection/send(_:keepingDescriptors:reply:)`` for
  /// who closes them.
  public var unixFDs: [Int32] = []

  public var member: String? { fields[.member]?.string }
  public var interface: String? { fields[.interface]?.string }
  public var path: String? { fields[.path]?.string }
  /// The unique name (`:1.42`) of the connection that sent it, which the bus fills in.
  public var sender: String? { fields[.sender]?.string }
  public var errorName: String? { fields[.errorName]?.string }
  var replySerial: UInt32? { fields[.replySerial]?.uint32 }
  /// How many descriptors the message says it carries.
  var unixFDCount: Int { Int(fields[.unixFDs]?.uint32 ?? 0) }

  /// A `PropertiesChanged` signal's interface, changed values and invalidated names, or nil when the
  /// message is not one.
  public var propertiesChanged: (interface: String, changed: [String: DBusValue], invalidated: [String])? {
    guard kind == .signal, interface == "org.freedesktop.DBus.Properties", member == "PropertiesChanged",
      body.count >= 2, let name = body[0].string, let changed = body[1].dictionary
    else { return nil }
    let invalidated = body.count > 2 ? (body[2].items ?? []).compactMap(\.string) : []
    return (name, changed, invalidated)
  }

  /// A method call to `destination`; the bus may start the service for it (activation).
  public static func methodCall(
    destination: String, path: String, interface: String, member: String, body: [DBusValue] = []
  ) -> DBusMessage {
    var message = DBusMessage(kind: .methodCall)
    message.fields = [
      .destination: .string(destination), .path: .objectPath(path), .interface: .string(interface),
      .member: .string(member),
    ]
    message.body = body
    return message
  }

  /// The bytes on the wire.
  func encoded() -> [UInt8] {
    var bodyWriter = DBusWriter()
    for value in body { bodyWriter.write(value) }
    var fields = self.fields
    let signature = body.map(\.signature).joined()
    if !signature.isEmpty { fields[.signature] = .signature(signature) }
    var writer = DBusWriter()
    writer.write(.byte(UInt8(ascii: "l")))
    writer.write(.byte(kind.rawValue))
    writer.write(.byte(flags))
    writer.write(.byte(1))
    writer.write(.uint32(UInt32(bodyWriter.bytes.count)))
    writer.write(.uint32(serial))
    let entries = fields.sorted { $0.key.rawValue < $1.key.rawValue }.map { field in
      DBusValue.struct([.byte(field.key.rawValue), .variant(field.value)])
    }
    writer.write(.array(element: "(yv)", entries))
    writer.align(8)
    return writer.bytes + bodyWriter.bytes
  }

  /// The length of the whole message whose first 16 bytes are `prefix`, or nil when they are not a
  /// message this client reads (big-endian, or a bad version).
  static func totalLength(prefix: ArraySlice<UInt8>) throws(DBusError) -> Int {
    guard prefix.count >= 16 else { throw .protocolError("a message header was cut short") }
    guard prefix[prefix.startIndex] == UInt8(ascii: "l") || prefix[prefix.startIndex] == UInt8(ascii: "B") else {
      throw .protocolError("a message with an unknown byte order")
    }
    var reader = DBusReader(bytes: Array(prefix), bigEndian: prefix[prefix.startIndex] == UInt8(ascii: "B"))
    reader.offset = 4
    let bodyLength = Int(try reader.readUInt32())
    reader.offset = 12
    let fieldsLength = Int(try reader.readUInt32())
    let header = 16 + fieldsLength
    let padded = (header + 7) & ~7
    // The specification caps a message at 128 MiB; anything bigger is a broken peer.
    guard bodyLength < 1 << 27, fieldsLength < 1 << 27 else { throw .protocolError("a message over 128 MiB") }
    return padded + bodyLength
  }

  /// The message at the start of `buffer`, taken out of it; nil until all of it has arrived.
  static func next(from buffer: inout [UInt8]) throws(DBusError) -> DBusMessage? {
    guard buffer.count >= 16 else { return nil }
    let length = try totalLength(prefix: buffer[0..<16])
    guard buffer.count >= length else { return nil }
    let bytes = Array(buffer[0..<length])
    buffer.removeSubrange(0..<length)
    return try decode(bytes)
  }

  /// Decodes one whole message.
  static func decode(_ bytes: [UInt8]) throws(DBusError) -> DBusMessage {
    var reader = DBusReader(bytes: bytes, bigEndian: bytes.first == UInt8(ascii: "B"))
    reader.offset = 1
    guard let kind = Kind(rawValue: try reader.readByte()) else {
      // Unknown kinds must be ignored (the specification): read as a signal nobody matches.
      return DBusMessage(kind: .signal)
    }
    var message = DBusMessage(kind: kind)
    message.flags = try reader.readByte()
    reader.offset = 8
    message.serial = try reader.readUInt32()
    guard case .array(_, let entries) = try reader.read(signature: "a(yv)") else { return message }
    for entry in entries {
      guard case .struct(let parts) = entry, parts.count == 2, case .byte(let code) = parts[0],
        case .variant(let value) = parts[1]
      else { continue }
      if let field = Field(rawValue: code) { message.fields[field] = value }
    }
    reader.align(8)
    if case .signature(let signature)? = message.fields[.signature] {
      message.body = try reader.readAll(signature: signature)
    }
    return message
  }
}

/// Marshals values in the D-Bus wire format (little-endian), with its alignment rules.
struct DBusWriter {
  var bytes: [UInt8] = []

  mutating func align(_ boundary: Int) {
    while bytes.count % boundary != 0 { bytes.append(0) }
  }

  private mutating func append<T: FixedWidthInteger>(_ value: T) {
    align(MemoryLayout<T>.size)
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func write(_ value: DBusValue) {
    switch value {
    case .byte(let byte): bytes.append(byte)
    case .boolean(let bool): append(UInt32(bool ? 1 : 0))
    case .int32(let number): append(number)
    case .uint32(let number), .unixFD(let number): append(number)
    case .int64(let number): append(number)
    case .uint64(let number): append(number)
    case .double(let number): append(number.bitPattern)
    case .string(let text), .objectPath(let text):
      let utf8 = Array(text.utf8)
      append(UInt32(utf8.count))
      bytes.append(contentsOf: utf8)
      bytes.append(0)
    case .signature(let text):
      let utf8 = Array(text.utf8)
      bytes.append(UInt8(utf8.count))
      bytes.append(contentsOf: utf8)
      bytes.append(0)
    case .array(let element, let items):
      append(UInt32(0))
      let lengthAt = bytes.count - 4
      // The length counts from the first element, after the padding to its alignment.
      align(DBusReader.alignment(of: element))
      let start = bytes.count
      for item in items { write(item) }
      let length = UInt32(bytes.count - start)
      withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
    case .struct(let fields):
      align(8)
      for field in fields { write(field) }
    case .dictEntry(let key, let value):
      align(8)
      write(key)
      write(value)
    case .variant(let inner):
      write(.signature(inner.signature))
      write(inner)
    }
  }
}

/// Reads values in the D-Bus wire format.
struct DBusReader {
  let bytes: [UInt8]
  let bigEndian: Bool
  var offset = 0
  /// How deeply containers nest: the specification allows 64, and a hostile peer could send more.
  private var depth = 0

  init(bytes: [UInt8], bigEndian: Bool = false) {
    self.bytes = bytes
    self.bigEndian = bigEndian
  }

  static func alignment(of signature: some StringProtocol) -> Int {
    switch signature.first {
    case "y", "g", "v": 1
    case "n", "q": 2
    case "b", "i", "u", "s", "o", "a", "h": 4
    case "x", "t", "d", "(", "{": 8
    default: 1
    }
  }

  mutating func align(_ boundary: Int) {
    offset = (offset + boundary - 1) / boundary * boundary
  }

  private mutating func take(_ count: Int) throws(DBusError) -> ArraySlice<UInt8> {
    guard count >= 0, offset + count <= bytes.count else { throw .protocolError("a message ends too early") }
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  mutating func readByte() throws(DBusError) -> UInt8 { try take(1).first ?? 0 }

  private mutating func readInteger<T: FixedWidthInteger>(_: T.Type) throws(DBusError) -> T {
    align(MemoryLayout<T>.size)
    let slice = try take(MemoryLayout<T>.size)
    var value: T = 0
    for (index, byte) in slice.enumerated() {
      let shift = bigEndian ? (slice.count - 1 - index) * 8 : index * 8
      value |= T(truncatingIfNeeded: byte) << shift
    }
    return value
  }

  mutating func readUInt32() throws(DBusError) -> UInt32 { try readInteger(UInt32.self) }

  private mutating func readText(length: Int) throws(DBusError) -> String {
    let text = String(decoding: try take(length), as: UTF8.self)
    _ = try take(1)
    return text
  }

  /// Every value of a body with this signature.
  mutating func readAll(signature: String) throws(DBusError) -> [DBusValue] {
    var values: [DBusValue] = []
    var rest = Substring(signature)
    while !rest.isEmpty {
      let type = try Self.firstType(of: rest)
      values.append(try read(signature: String(type)))
      rest = rest.dropFirst(type.count)
    }
    return values
  }

  /// The first complete type of a signature (`a{sv}` of `a{sv}i`).
  static func firstType(of signature: Substring) throws(DBusError) -> Substring {
    guard let first = signature.first else { throw .protocolError("an empty type signature") }
    switch first {
    case "a":
      let element = try firstType(of: signature.dropFirst())
      return signature.prefix(1 + element.count)
    case "(", "{":
      let close: Character = first == "(" ? ")" : "}"
      var level = 0
      for (index, character) in signature.enumerated() {
        if character == "(" || character == "{" { level += 1 }
        if character == ")" || character == "}" { level -= 1 }
        if level == 0 {
          guard character == close else { break }
          return signature.prefix(index + 1)
        }
      }
      throw .protocolError("an unbalanced type signature '\(signature)'")
    default:
      return signature.prefix(1)
    }
  }

  mutating func read(signature: String) throws(DBusError) -> DBusValue {
    guard let first = signature.first else { throw .protocolError("an empty type signature") }
    switch first {
    case "y": return .byte(try readByte())
    case "b": return .boolean(try readInteger(UInt32.self) != 0)
    case "n": return .int32(Int32(try readInteger(Int16.self)))
    case "q": return .uint32(UInt32(try readInteger(UInt16.self)))
    case "i": return .int32(try readInteger(Int32.self))
    case "u": return .uint32(try readInteger(UInt32.self))
    case "h": return .unixFD(try readInteger(UInt32.self))
    case "x": return .int64(try readInteger(Int64.self))
    case "t": return .uint64(try readInteger(UInt64.self))
    case "d": return .double(Double(bitPattern: try readInteger(UInt64.self)))
    case "s": return .string(try readText(length: Int(try readUInt32())))
    case "o": return .objectPath(try readText(length: Int(try readUInt32())))
    case "g": return .signature(try readText(length: Int(try readByte())))
    case "v":
      let inner = try readText(length: Int(try readByte()))
      return .variant(try nested { (reader: inout DBusReader) throws(DBusError) in try reader.read(signature: inner) })
    case "a":
      let element = String(signature.dropFirst())
      let length = Int(try readUInt32())
      align(Self.alignment(of: element))
      let end = offset + length
      guard end <= bytes.count else { throw .protocolError("an array runs past the end of its message") }
      var items: [DBusValue] = []
      try nested { (reader: inout DBusReader) throws(DBusError) in
        while reader.offset < end {
          // Every type the specification has takes at least a byte; an element that takes none (an
          // empty struct, which it forbids) would repeat forever.
          let start = reader.offset
          items.append(try reader.read(signature: element))
          guard reader.offset > start else { throw .protocolError("an array of '\(element)', which takes no bytes") }
        }
      }
      return .array(element: element, items)
    case "(", "{":
      align(8)
      let inner = try Self.firstType(of: Substring(signature)).dropFirst().dropLast()
      let fields = try nested { (reader: inout DBusReader) throws(DBusError) in
        try reader.readAll(signature: String(inner))
      }
      if first == "{", fields.count == 2 { return .dictEntry(fields[0], fields[1]) }
      return .struct(fields)
    default:
      throw .protocolError("a type this client does not read: '\(first)'")
    }
  }

  private mutating func nested<T>(_ body: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 64 else { throw .protocolError("values nested more than 64 deep") }
    return try body(&self)
  }
}

/// What can go wrong talking to a bus.
public enum DBusError: Error, Sendable, Equatable {
  /// No address, or nothing listening at it.
  case noBus(String)
  /// The bus answered something this client cannot read.
  case protocolError(String)
  /// A method call's error reply: its name and message.
  case remote(name: String, message: String)
  /// The socket failed.
  case io(String)
  case timedOut
  case cancelled

  /// What went wrong, in words, for a report that names the service too.
  public var why: String {
    switch self {
    case .noBus(let why), .protocolError(let why), .io(let why): why
    case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
    case .timedOut: "no answer in time"
    case .cancelled: "cancelled"
    }
  }
}
