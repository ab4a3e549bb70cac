import Foundation

/// An HTTP request as flow's actions and clients describe it, independent of the client library.
public struct HTTPRequest: Sendable, Hashable {
  public var method: String
  public var url: URL
  /// Header fields; names compare case-insensitively on the wire, so keep one spelling per name.
  public var headers: [String: String]
  public var body: Data?
  /// How long to wait for the whole response.
  public var timeout: Duration

  public init(
    method: String = "GET",
    url: URL,
    headers: [String: String] = [:],
    body: Data? = nil,
    timeout: Duration = .seconds(30)
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
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
  case other(String)

  public var description: String {
    switch self {
    case .timedOut(let after): "no answer within \(after)"
    case .cannotConnect(let host): "cannot connect to \(host)"
    case .connectionLost: "the connection was lost before the answer was complete"
    case .cancelled: "the request was cancelled"
    case .other(let message): message
    }
  }
}
