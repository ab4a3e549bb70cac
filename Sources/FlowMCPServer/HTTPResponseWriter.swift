import FlowMCP
import FoundationEssentials
import Glibc

/// Writes HTTP/1.1 responses to a connected socket: whole ones with a `Content-Length`, and event
/// streams (`text/event-stream`) in chunked coding, so that the connection can carry the next request
/// once a stream ends.
struct HTTPResponseWriter {
  let socket: Int32

  /// A whole response; false when the client is gone.
  @discardableResult
  func write(
    status: Int, headers: [(String, String)] = [], body: [UInt8] = [], contentType: String? = nil,
    keepAlive: Bool
  ) -> Bool {
    var all = headers
    if let contentType { all.append(("Content-Type", contentType)) }
    all.append(("Content-Length", String(body.count)))
    return send(head(status: status, headers: all, keepAlive: keepAlive) + body)
  }

  /// A JSON-RPC message (or an error made up here) as `application/json`.
  @discardableResult
  func writeJSON(status: Int, _ text: String, headers: [(String, String)] = [], keepAlive: Bool) -> Bool {
    write(
      status: status, headers: headers, body: Array(text.utf8), contentType: "application/json", keepAlive: keepAlive)
  }

  /// A refusal: its reason as a JSON-RPC error without an id, which the MCP SDKs show to their users.
  @discardableResult
  func refuse(_ problem: HTTPRequestProblem, headers: [(String, String)] = [], keepAlive: Bool) -> Bool {
    let error = RPCMessage.error(id: nil, RPCError(code: RPCError.invalidRequest, message: problem.message))
    return writeJSON(status: problem.status, error.encoded(), headers: headers, keepAlive: keepAlive)
  }

  /// Starts an event stream; each ``event(_:)`` follows as one chunk, ``endStream()`` ends it.
  func beginStream(headers: [(String, String)], keepAlive: Bool) -> Bool {
    var all = headers
    all.append(("Content-Type", "text/event-stream"))
    all.append(("Cache-Control", "no-cache"))
    all.append(("Transfer-Encoding", "chunked"))
    return send(head(status: 200, headers: all, keepAlive: keepAlive))
  }

  /// One server-sent event carrying one JSON-RPC message, which is one line (`RPCMessage.encoded`).
  func event(_ message: RPCMessage) -> Bool {
    chunk(Array("event: message\ndata: \(message.encoded())\n\n".utf8))
  }

  func endStream() -> Bool { send(Array("0\r\n\r\n".utf8)) }

  private func chunk(_ bytes: [UInt8]) -> Bool {
    send(Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8))
  }

  private func head(status: Int, headers: [(String, String)], keepAlive: Bool) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += keepAlive ? "" : "Connection: close\r\n"
    text += "\r\n"
    return Array(text.utf8)
  }

  private func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 202: "Accepted"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 406: "Not Acceptable"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 431: "Request Header Fields Too Large"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }
}
