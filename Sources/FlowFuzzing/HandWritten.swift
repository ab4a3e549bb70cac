/// Seeds written by hand, for the targets whose inputs the project's YAML files do not hold: a few of
/// each shape the parser takes, valid and nearly valid, for libFuzzer to mutate.
enum HandWritten {
  static let rpcMessages = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
    #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    #"{"jsonrpc":"2.0","id":"a","result":{"tools":[{"name":"x","inputSchema":{"type":"object"}}]}}"#,
    #"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no such method","data":[1,2]}}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"n":1.5e3,"s":"\u00e9\n"}}}"#,
  ]

  static let json = [
    #"{"a": [1, -2.5e-3, true, false, null, "x\"y\\z\u0041\ud83d\ude00"], "b": {}}"#, "[]", "0", #""""#,
    "[[[[[[[[[[1]]]]]]]]]]", #"{"a":1,"a":2}"#, "1e308", "-0", " \t\n[1 , 2 ]\n",
  ]

  static let httpRequests: [String] = {
    let body = rpcMessages[0]
    let post =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nContent-Type: application/json\r\n"
      + "Accept: application/json, text/event-stream\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    return [
      post,
      post + post,
      "POST /mcp HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:3000\r\nTransfer-Encoding: chunked\r\n"
        + "Content-Type: application/json\r\n\r\n5;x=1\r\n{\"a\":\r\n3\r\n 1}\r\n0\r\nTrailer: 1\r\n\r\n",
      "DELETE /mcp HTTP/1.1\r\nHost: [::1]:80\r\nMcp-Session-Id: 00ff\r\nConnection: close\r\n\r\n",
      "GET /mcp?x=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
      "\r\n\nPOST * HTTP/1.1\r\nHost: evil.example\r\nOrigin: null\r\nContent-Length: 0\r\n\r\n",
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
      "POST /mcp HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n",
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n Folded: yes\r\nAccept: text/*;q=0.5, application/*\r\n\r\n",
    ]
  }()

  static let eventStreams = [
    "event: message\ndata: \(rpcMessages[2])\n\n",
    ": keep-alive\r\n\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"x\"}\r\n\r\n",
    "data:a\rdata:b\r\revent: other\rdata\r\rretry: 10\nid: \u{0}\n\n",
    "data: \(rpcMessages[3])\n\ndata: \(rpcMessages[1])\n\n",
    "event:message\ndata:\(rpcMessages[4])\nid:2\n\n",
    "data\n\n", ":\n:\n\n", "event: ping\n\n", "data: x\ndata: y", "\u{FEFF}data: bom\n\n",
  ]

  static let csv: [(separator: UInt8, text: String)] = [
    (0, "name,age\nAda,36\n\"Lovelace, A\",\"said \"\"hi\"\"\"\n"),
    (1, "a;b;c\r\n1;2;3\r\n\r\n\"x\ny\";;\n"),
    (2, "a\tb\n\t\n"),
    (3, "a|b\n\"|\"|\"\"\n"),
    (0, "\"\"\n"), (0, "a,\"b\"c\n"), (0, "a,b\"c\n"), (0, "\"open\n"), (1, "é;👍🏽\r\n\r\n;\r\n"), (0, ",\n,,\n"),
  ]

  static let numbers = [
    "30s", "1h30m", "500ms", "1.5s", "90", "2d", " 1 m ", "1e3", "-1.5", "0x10", "tomorrow", "next monday",
    "in 3 days", "2026-11-21T14:30:00+02:00", "2026-11-21 14:30", "true", "https://example.com/a?b#c", "NaN",
  ]

  /// D-Bus messages as the bus sends them: whole, two back to back, and cut short (the connection reads
  /// them from one buffer).
  static let dbusMessages: [[UInt8]] = {
    let whole = dbusWholeMessages
    return whole + [whole[0] + whole[1], whole[1] + whole[2] + whole[3]]
      + whole.map { Array($0.prefix(16)) } + whole.map { Array($0.dropLast(3)) }
  }()

  /// A reply with a string body, a signal with two values, an error, and a reply holding an `a{sv}`.
  static let dbusWholeMessages: [[UInt8]] = [
    DBusBytes.message(kind: 2, fields: [(5, "u", .uint32(1)), (8, "g", .signature("s"))], body: [.string(":1.42")]),
    DBusBytes.message(
      kind: 4,
      fields: [
        (1, "o", .string("/org/freedesktop/Notifications")), (2, "s", .string("org.freedesktop.Notifications")),
        (3, "s", .string("ActionInvoked")), (8, "g", .signature("us")),
      ], body: [.uint32(7), .string("default")]),
    DBusBytes.message(
      kind: 3,
      fields: [
        (4, "s", .string("org.freedesktop.DBus.Error.Failed")), (5, "u", .uint32(2)), (8, "g", .signature("s")),
      ],
      body: [.string("no")]),
    DBusBytes.message(
      kind: 2, fields: [(5, "u", .uint32(3)), (8, "g", .signature("a{sv}"))],
      body: [
        .raw(
          [10, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x6B, 0, 1, 0x79, 0, 7])
      ]),
  ]
}

/// A little D-Bus marshaller for the seeds (little-endian), apart from flow's own so that a bug in
/// flow's writer does not hide the same bug in its reader.
enum DBusBytes {
  enum Value {
    case uint32(UInt32)
    case string(String)
    case signature(String)
    /// Bytes as they are, already aligned from an 8-byte boundary.
    case raw([UInt8])
  }

  static func message(kind: UInt8, fields: [(code: UInt8, signature: String, value: Value)], body: [Value]) -> [UInt8] {
    var bodyBytes: [UInt8] = []
    for value in body { write(value, into: &bodyBytes) }
    var fieldBytes: [UInt8] = []
    for field in fields {
      align(&fieldBytes, 8)
      fieldBytes.append(field.code)
      write(.signature(field.signature), into: &fieldBytes)
      write(field.value, into: &fieldBytes)
    }
    var bytes: [UInt8] = [UInt8(ascii: "l"), kind, 0, 1]
    append(UInt32(bodyBytes.count), to: &bytes)
    append(UInt32(1), to: &bytes)
    append(UInt32(fieldBytes.count), to: &bytes)
    bytes += fieldBytes
    align(&bytes, 8)
    return bytes + bodyBytes
  }

  static func write(_ value: Value, into bytes: inout [UInt8]) {
    switch value {
    case .uint32(let number):
      align(&bytes, 4)
      append(number, to: &bytes)
    case .string(let text):
      align(&bytes, 4)
      append(UInt32(text.utf8.count), to: &bytes)
      bytes += Array(text.utf8) + [0]
    case .signature(let text):
      bytes.append(UInt8(text.utf8.count))
      bytes += Array(text.utf8) + [0]
    case .raw(let raw):
      bytes += raw
    }
  }

  static func align(_ bytes: inout [UInt8], _ boundary: Int) {
    while bytes.count % boundary != 0 { bytes.append(0) }
  }

  static func append(_ number: UInt32, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: number.littleEndian) { bytes += $0 }
  }
}
