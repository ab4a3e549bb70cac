import FlowMCP
import FlowMCPServer
import Foundation

/// Bytes as a client sends them to `flow mcp --http`: read by the server's own ``HTTPRequestReader``
/// from a real socket (one end of a socket pair, the bytes written to the other), request after
/// request as on a kept-alive connection, each through the checks the server makes before a session
/// sees it (Origin, Host, Accept) and its body decoded as a JSON-RPC message. Once with the server's
/// limits, once with small ones, so that short inputs reach the refusals too.
enum HTTPRequestTarget {
  static let small: HTTPLimits = {
    var limits = HTTPLimits()
    limits.headerBytes = 256
    limits.headerCount = 8
    limits.bodyBytes = 512
    return limits
  }()

  static func run(_ bytes: [UInt8]) {
    read(bytes, limits: HTTPLimits())
    read(bytes, limits: small)
  }

  static func read(_ bytes: [UInt8], limits: HTTPLimits) {
    var ends: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { fatalError("socketpair: \(errno)") }
    let (server, client) = (ends[0], ends[1])
    defer { close(server) }
    // What fits in the socket's buffer is written at once; a bigger input is written by a thread while
    // the reader takes it, as a client would send it.
    if bytes.count <= 64 << 10 {
      write(bytes, to: client)
    } else {
      let writer = Thread { write(bytes, to: client) }
      writer.start()
    }
    let reader = HTTPRequestReader(socket: server, limits: limits)
    while case .request(let request) = reader.next() {
      _ = (request.path, request.keepsAlive, request.header("mcp-session-id"), request.header("content-type"))
      if let origin = request.header("origin") { _ = StreamableHTTPServer.isLoopbackOrigin(origin) }
      if let host = request.header("host") { _ = LoopbackAddress.isLoopbackHost(host) }
      _ = StreamableHTTPServer.accepts(request.header("accept"))
      if let message = try? RPCMessage.decode(String(decoding: request.body, as: UTF8.self)) {
        _ = message.encoded()
      }
    }
  }

  /// Writes all of `bytes` and closes the socket; stops early when the reader has gone.
  static func write(_ bytes: [UInt8], to socket: Int32) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      sent += count
    }
    close(socket)
  }
}
