internal import CCurlShim
import FoundationEssentials
import Glibc

/// The status and headers of a response whose body is still arriving.
public struct HTTPResponseHead: Sendable, Hashable {
  public var status: Int
  /// Header fields with lower-cased names.
  public var headers: [String: String]

  public init(status: Int, headers: [String: String] = [:]) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
  }

  /// The value of a header, by case-insensitive name.
  public subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// Stops a transfer from another thread: the transfer polls it (at least once a second, even while
/// nothing arrives) and ends as ``HTTPTransportError/cancelled``.
public final class HTTPCancellation: @unchecked Sendable {
  /// Read by libcurl's progress callback on the transfer's thread; written once, from any thread.
  let pointer: UnsafeMutablePointer<Int32>

  public init() {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: 0)
  }

  deinit { pointer.deallocate() }

  public func cancel() { pointer.pointee = 1 }
}

/// HTTP whose responses are read as they arrive, for answers that stay open (server-sent events, which
/// MCP's Streamable HTTP uses to send a server's requests and progress before its answer).
///
/// Blocking by design: each transfer runs on the thread that calls ``stream(_:cancellation:head:body:)``,
/// one easy handle per transfer, so a caller that needs a second request while the first is open (the
/// answer to a question the server asks on that open stream) gives each its own thread.
public protocol StreamingHTTPTransport: Sendable {
  /// Performs `request`, handing `head` the status and headers, then `body` each piece of the body as
  /// it arrives; either returns false to stop the transfer (which then ends as `.cancelled`).
  /// `request.timeout` bounds connecting; `limit` the whole transfer (nil: an open stream lasts until
  /// its server ends it, a closure stops it, or `cancellation`). `request.maximumBodySize` bounds the
  /// whole body when set.
  func stream(
    _ request: HTTPRequest, limit: Duration?, cancellation: HTTPCancellation, head: (HTTPResponseHead) -> Bool,
    body: (UnsafeRawBufferPointer) -> Bool
  ) -> Result<Void, HTTPTransportError>
}

extension CurlTransport: StreamingHTTPTransport {
  public func stream(
    _ request: HTTPRequest, limit: Duration?, cancellation: HTTPCancellation, head: (HTTPResponseHead) -> Bool,
    body: (UnsafeRawBufferPointer) -> Bool
  ) -> Result<Void, HTTPTransportError> {
    withoutActuallyEscaping(head) { head in
      withoutActuallyEscaping(body) { body in
        let receiver = StreamReceiver(head: head, body: body, limit: request.maximumBodySize)
        return Self.blockingStream(request, limit: limit, cancellation: cancellation, receiver: receiver)
      }
    }
  }

  private static func blockingStream(
    _ request: HTTPRequest, limit: Duration?, cancellation: HTTPCancellation, receiver: StreamReceiver
  ) -> Result<Void, HTTPTransportError> {
    let headers = request.headers.map { strdup("\($0.key): \($0.value)") }
    defer { headers.forEach { free($0) } }
    func milliseconds(_ duration: Duration) -> Int {
      Int(max(1, duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
    }
    var message = [CChar](repeating: 0, count: 256)
    let context = Unmanaged.passUnretained(receiver).toOpaque()
    let onHead: flow_http_head_callback = { context, status, text, length in
      guard let context else { return 1 }
      let receiver = Unmanaged<StreamReceiver>.fromOpaque(context).takeUnretainedValue()
      let lines = text.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
      return receiver.head(HTTPResponseHead(status: status, headers: CurlTransport.parseHeaders(lines))) ? 0 : 1
    }
    let onBody: flow_http_body_callback = { context, bytes, count in
      guard let context else { return 1 }
      let receiver = Unmanaged<StreamReceiver>.fromOpaque(context).takeUnretainedValue()
      return receiver.receive(UnsafeRawBufferPointer(start: bytes, count: count)) ? 0 : 1
    }
    let outcome: Int32 = withExtendedLifetime(receiver) {
      headers.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerPointers in
        let perform = { (body: UnsafeRawBufferPointer?) -> Int32 in
          flow_http_stream(
            request.method, request.url.absoluteString, headerPointers.baseAddress, headerPointers.count,
            body?.baseAddress, body?.count ?? 0, milliseconds(request.timeout), limit.map(milliseconds) ?? 0,
            cancellation.pointer, context, onHead, onBody,
            &message)
        }
        guard let body = request.body else { return perform(nil) }
        return body.isEmpty
          ? [UInt8(0)].withUnsafeBytes { perform(UnsafeRawBufferPointer(rebasing: $0[0..<0])) }
          : body.withUnsafeBytes { perform($0) }
      }
    }
    let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch outcome {
    case Int32(FLOW_HTTP_OK.rawValue): return .success(())
    case Int32(FLOW_HTTP_TIMED_OUT.rawValue): return .failure(.timedOut(after: limit ?? request.timeout))
    case Int32(FLOW_HTTP_CANNOT_CONNECT.rawValue):
      return .failure(.cannotConnect(host: request.url.host ?? request.url.absoluteString))
    case Int32(FLOW_HTTP_CONNECTION_LOST.rawValue): return .failure(.connectionLost)
    case Int32(FLOW_HTTP_CANCELLED.rawValue):
      return .failure(receiver.exceeded ? .tooLarge(limit: request.maximumBodySize ?? 0) : .cancelled)
    default: return .failure(.other(text))
    }
  }
}

/// The closures of one streaming transfer, reached from libcurl's callbacks through its context pointer.
private final class StreamReceiver {
  let head: (HTTPResponseHead) -> Bool
  let body: (UnsafeRawBufferPointer) -> Bool
  let limit: Int?
  var received = 0
  var exceeded = false

  init(head: @escaping (HTTPResponseHead) -> Bool, body: @escaping (UnsafeRawBufferPointer) -> Bool, limit: Int?) {
    self.head = head
    self.body = body
    self.limit = limit
  }

  func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    received += bytes.count
    if let limit, received > limit {
      exceeded = true
      return false
    }
    return body(bytes)
  }
}
