import FlowDiagnostics
import FlowMCP
import FlowModel
import FoundationEssentials
import Glibc

/// One HTTP/1.1 request, as `flow mcp --http` reads it: header names lower-cased, the body whole.
public struct IncomingHTTPRequest: Sendable {
  public var method: String
  /// The request target as sent (`/mcp`, `/mcp?x=1`).
  public var target: String
  /// `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  /// In the order sent, names lower-cased.
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  /// The first value of a header, by its name in any case.
  public func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name == name }?.value
  }

  /// The target without its query.
  public var path: String { String(target.prefix { $0 != "?" }) }

  /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
  /// HTTP/1.0 only with `Connection: keep-alive`.
  public var keepsAlive: Bool {
    let tokens = Set(
      (header("connection") ?? "").lowercased().split(separator: ",").map {
        $0.trimmingWhitespace()
      })
    return version == "HTTP/1.1" ? !tokens.contains("close") : tokens.contains("keep-alive")
  }
}

/// Why bytes are not a request this server takes, as the status that answers them.
public struct HTTPRequestProblem: Error, Sendable, Equatable {
  public var status: Int
  public var message: String

  public init(_ status: Int, _ message: String) {
    self.status = status
    self.message = message
  }
}

/// How much of a request the server reads before refusing it: it buffers every request whole, so
/// a client cannot make it hold more than this per connection.
public struct HTTPLimits: Sendable {
  /// The request line and headers together (431 beyond).
  public var headerBytes = 16 << 10
  public var headerCount = 100
  /// The body (413 beyond): a JSON-RPC message, whose arguments are a workflow's inputs.
  public var bodyBytes = 4 << 20
  /// How long the request line and headers may take to arrive, from their first byte (408 beyond): a
  /// client sending a byte at a time (slowloris) would otherwise hold a connection for good, since the
  /// socket's idle timeout starts again with each byte.
  public var headerTime: Duration = .seconds(10)
  /// How long the body may take to arrive once the headers have (408 beyond).
  public var bodyTime: Duration = .seconds(30)

  public init() {}
}

/// Reads requests one after another from a connected socket (keep-alive), keeping what follows one
/// request for the next. Blocking `recv(2)` on the connection's own thread: flow has no event loop.
public final class HTTPRequestReader {
  public enum Next {
    case request(IncomingHTTPRequest)
    /// The client closed the connection (or went quiet past the socket's receive timeout) between requests.
    case end
    /// Bytes that are not a request; the connection is answered with the status and closed.
    case problem(HTTPRequestProblem)
  }

  let socket: Int32
  let limits: HTTPLimits
  private var buffer: [UInt8] = []
  /// When the part of the request being read must have arrived; none between requests, where the
  /// socket's idle timeout applies.
  private var deadline: ContinuousClock.Instant?
  private let clock = ContinuousClock()

  public init(socket: Int32, limits: HTTPLimits) {
    self.socket = socket
    self.limits = limits
  }

  /// The next request, read whole.
  public func next() -> Next {
    deadline = nil
    defer { deadline = nil }
    // RFC 9112 §2.2: empty lines before a request line are ignored.
    while true {
      while buffer.starts(with: [0x0D, 0x0A]) { buffer.removeFirst(2) }
      while buffer.first == 0x0A { buffer.removeFirst() }
      if deadline == nil, !buffer.isEmpty { deadline = clock.now.advanced(by: limits.headerTime) }
      let end = headerEnd()
      if (end ?? buffer.count) > limits.headerBytes {
        return .problem(HTTPRequestProblem(431, "the request's headers are longer than \(limits.headerBytes) bytes"))
      }
      if let end {
        deadline = clock.now.advanced(by: limits.bodyTime)
        return parse(headerLength: end)
      }
      switch fill() {
      case .data: continue
      case .end: return buffer.isEmpty ? .end : .problem(HTTPRequestProblem(400, "the request ended early"))
      case .timedOut: return .problem(Self.late("headers", limits.headerTime))
      }
    }
  }

  static func late(_ part: String, _ time: Duration) -> HTTPRequestProblem {
    HTTPRequestProblem(408, "the request's \(part) did not arrive within \(DurationParsing.format(time))")
  }

  enum Fill { case data, end, timedOut }

  /// Whether the last read stopped at the deadline (for the body's readers, which answer nil).
  private var lastTimedOut = false

  /// Reads what the socket has (blocking until something arrives, or until the request's deadline);
  /// `.end` at its end or on an error.
  func fill() -> Fill {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    lastTimedOut = false
    while true {
      if let deadline {
        let left = clock.now.duration(to: deadline)
        let (seconds, attoseconds) = left.components
        let milliseconds =
          left <= .zero ? 0 : Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 3_600_000))
        var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&watched, 1, milliseconds)
        if ready < 0, errno == EINTR { continue }
        if ready == 0 {
          lastTimedOut = true
          return .timedOut
        }
      }
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        buffer.append(contentsOf: chunk[0..<count])
        return .data
      }
      if count < 0, errno == EINTR { continue }
      return .end
    }
  }

  /// How many bytes of the buffer already wait for the next request (a pipelining client).
  var buffered: Int { buffer.count }

  /// The length of the request line and headers including the empty line, once all have arrived.
  private func headerEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    var index = 0
    while index + 3 < buffer.count {
      if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
        return index + 4
      }
      index += 1
    }
    return nil
  }

  private func parse(headerLength: Int) -> Next {
    let head = String(decoding: buffer[0..<(headerLength - 4)], as: UTF8.self)
    buffer.removeFirst(headerLength)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[0].allSatisfy(Self.isTokenCharacter),
      requestLine[1].first == "/" || requestLine[1] == "*"
    else { return .problem(HTTPRequestProblem(400, "the request line is not 'METHOD /path HTTP/1.1'")) }
    let version = String(requestLine[2])
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      return .problem(
        HTTPRequestProblem(
          version.hasPrefix("HTTP/") ? 505 : 400, "the HTTP version '\(version)' is not HTTP/1.1 or HTTP/1.0"))
    }
    guard lines.count <= limits.headerCount else {
      return .problem(HTTPRequestProblem(431, "the request has more than \(limits.headerCount) headers"))
    }
    var headers: [(name: String, value: String)] = []
    for line in lines {
      // Obsolete line folding (a line starting with white space) and a space before the colon are
      // refused, as RFC 9112 §5 asks: both have been used to smuggle requests.
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
        line[..<colon].allSatisfy(Self.isTokenCharacter)
      else { return .problem(HTTPRequestProblem(400, "a header line is not 'Name: value'")) }
      let value = line[line.index(after: colon)...].trimmingScalars(where: { $0 == " " || $0 == "\t" })
      headers.append((line[..<colon].lowercased(), value))
    }
    var request = IncomingHTTPRequest(
      method: String(requestLine[0]), target: String(requestLine[1]), version: version, headers: headers, body: [])
    if version == "HTTP/1.1", request.header("host") == nil {
      return .problem(HTTPRequestProblem(400, "an HTTP/1.1 request needs a Host header"))
    }
    // Two Hosts or two Origins are refused (RFC 9112 §3.2 for Host): the server checks the first, and a
    // proxy or a library before it may have read the other.
    for (name, shown) in [("host", "Host"), ("origin", "Origin")] where headers.count(where: { $0.name == name }) > 1 {
      return .problem(HTTPRequestProblem(400, "the request has several \(shown) headers"))
    }
    let lengths = Set(headers.filter { $0.name == "content-length" }.map(\.value))
    let encodings = headers.filter { $0.name == "transfer-encoding" }.map { $0.value.lowercased() }
    if !encodings.isEmpty {
      guard lengths.isEmpty else {
        return .problem(HTTPRequestProblem(400, "a request has both Content-Length and Transfer-Encoding"))
      }
      guard encodings == ["chunked"] else {
        return .problem(
          HTTPRequestProblem(501, "the transfer coding '\(encodings.joined(separator: ", "))' is not supported"))
      }
      switch readChunkedBody() {
      case .success(let body): request.body = body
      case .failure(let problem): return .problem(lastTimedOut ? Self.late("body", limits.bodyTime) : problem)
      }
      return .request(request)
    }
    guard lengths.count <= 1 else {
      return .problem(HTTPRequestProblem(400, "the request has several Content-Lengths"))
    }
    guard let text = lengths.first else { return .request(request) }
    guard !text.isEmpty, text.utf8.count <= 12, text.allSatisfy(\.isASCIIDigit), let length = Int(text) else {
      return .problem(HTTPRequestProblem(400, "the Content-Length '\(text)' is not a number"))
    }
    guard length <= limits.bodyBytes else {
      return .problem(HTTPRequestProblem(413, "the request's body is longer than \(limits.bodyBytes) bytes"))
    }
    guard let body = take(length) else {
      return .problem(
        lastTimedOut ? Self.late("body", limits.bodyTime) : HTTPRequestProblem(400, "the request ended early"))
    }
    request.body = body
    return .request(request)
  }

  /// The next `count` bytes, reading as needed; nil when the connection ends first.
  private func take(_ count: Int) -> [UInt8]? {
    while buffer.count < count {
      guard case .data = fill() else { return nil }
    }
    defer { buffer.removeFirst(count) }
    return Array(buffer[0..<count])
  }

  /// A line ending in CRLF, at most `limit` bytes; nil when the connection ends first or the line is longer.
  private func line(limit: Int) -> String? {
    while true {
      if let index = buffer.firstIndex(of: 0x0A), index <= limit {
        guard index > 0, buffer[index - 1] == 0x0D else { return nil }
        defer { buffer.removeFirst(index + 1) }
        return String(decoding: buffer[0..<(index - 1)], as: UTF8.self)
      }
      if buffer.count > limit { return nil }
      guard case .data = fill() else { return nil }
    }
  }

  private func readChunkedBody() -> Result<[UInt8], HTTPRequestProblem> {
    var body: [UInt8] = []
    while true {
      guard let sizeLine = line(limit: 1024) else {
        return .failure(HTTPRequestProblem(400, "a chunk's size line is malformed"))
      }
      let digits = sizeLine.prefix { $0 != ";" }.trimmingWhitespace()
      guard !digits.isEmpty, digits.count <= 8, let size = Int(digits, radix: 16), size >= 0 else {
        return .failure(HTTPRequestProblem(400, "a chunk's size '\(digits)' is not hexadecimal"))
      }
      if size == 0 {
        // Trailers, up to the empty line; their contents are not used.
        while true {
          guard let trailer = line(limit: limits.headerBytes) else {
            return .failure(HTTPRequestProblem(400, "the chunked body's trailer is malformed"))
          }
          if trailer.isEmpty { return .success(body) }
        }
      }
      guard body.count + size <= limits.bodyBytes else {
        return .failure(HTTPRequestProblem(413, "the request's body is longer than \(limits.bodyBytes) bytes"))
      }
      guard let chunk = take(size + 2), chunk[size] == 0x0D, chunk[size + 1] == 0x0A else {
        return .failure(HTTPRequestProblem(400, "a chunk does not end with CRLF"))
      }
      body.append(contentsOf: chunk[0..<size])
    }
  }

  /// RFC 9110's `tchar`: what a method or a header name is made of.
  static func isTokenCharacter(_ character: Character) -> Bool {
    guard let ascii = character.asciiValue, ascii > 0x20, ascii < 0x7F else { return false }
    return !"\"(),/:;<=>?@[\\]{}".contains(character)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
}
