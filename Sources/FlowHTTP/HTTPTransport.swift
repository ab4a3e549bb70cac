import FoundationEssentials

/// An HTTP request as flow's actions and clients describe it, independent of the client library.
public struct HTTPRequest: Sendable, Hashable {
  public var method: String
  public var url: URL
  /// Header fields; names compare case-insensitively on the wire, so keep one spelling per name.
  public var headers: [String: String]
  public var body: Data?
  /// How long to wait for the whole response.
  public var timeout: Duration
  /// The longest response body accepted, in bytes; a longer one stops the transfer as it passes the
  /// limit (``HTTPTransportError/tooLarge(limit:)``) instead of being read into memory. nil: no limit.
  public var maximumBodySize: Int?

  public init(
    method: String = "GET",
    url: URL,
    headers: [String: String] = [:],
    body: Data? = nil,
    timeout: Duration = .seconds(30),
    maximumBodySize: Int? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.maximumBodySize = maximumBodySize
  }
}

/// A complete HTTP response.
public struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  /// Header fields with lower-cased names.
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.body = body
  }

  /// The value of a header, by case-insensitive name.
  public subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// The one effect for HTTP: send a request, get the whole response back.
///
/// A status such as 404 or 500 is a response, not an error; errors are for requests that got no
/// response at all (``HTTPTransportError``). Tests use the real implementation against a loopback
/// server; the protocol exists so that another client (AsyncHTTPClient, say) could be swapped in.
public protocol HTTPTransport: Sendable {
  func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse
}

/// Why a request got no response.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
  case timedOut(after: Duration)
  case cannotConnect(host: String)
  case connectionLost
  case cancelled
  /// The body was longer than the request's ``HTTPRequest/maximumBodySize``.
  case tooLarge(limit: Int)
  case other(String)

  public var description: String {
    switch self {
    case .timedOut(let after): "no answer within \(after)"
    case .cannotConnect(let host): "cannot connect to \(host)"
    case .connectionLost: "the connection was lost before the answer was complete"
    case .cancelled: "the request was cancelled"
    case .tooLarge(let limit): "the answer is longer than the \(limit) bytes this request accepts"
    case .other(let message): message
    }
  }
}
