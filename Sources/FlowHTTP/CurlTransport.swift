internal import CCurlShim
import FlowDiagnostics
import FoundationEssentials
import Glibc

/// ``HTTPTransport`` over libcurl, loaded with `dlopen` on the first request.
///
/// Not URLSession: FoundationNetworking links libcurl and the thirty-odd libraries it needs (TLS,
/// Kerberos, LDAP, …) at load time, which cost every `flow run` about 6 ms before its first step — more
/// than the rest of start-up together — though most runs make no request at all. libcurl is the same
/// library URLSession uses on Linux, so proxies (`http_proxy`, `no_proxy`) and TLS behave as before.
///
/// Redirects are followed here, within one scheme, host and port only, so that an `Authorization`
/// header (the Raindrop.io token) never goes to another host; a redirect elsewhere comes back as it is.
public struct CurlTransport: HTTPTransport {
  /// How many redirects one request may follow.
  public static let maximumRedirects = 5

  public init() {}

  public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
    var current = request
    var response = try await Self.perform(current)
    for _ in 0..<Self.maximumRedirects {
      guard [301, 302, 303, 307, 308].contains(response.status), let location = response[header: "location"],
        let next = URL(string: location, relativeTo: current.url)?.absoluteURL,
        Self.sameOrigin(current.url, next)
      else { break }
      // As browsers do: 303, and 301/302 after anything but GET or HEAD, continue as a GET without body.
      if response.status == 303 || (response.status < 307 && !["GET", "HEAD"].contains(current.method)) {
        current.method = "GET"
        current.body = nil
      }
      current.url = next
      response = try await Self.perform(current)
    }
    return response
  }

  private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
      && a.port == b.port
  }

  /// One request on a thread of its own (libcurl blocks); cancelling the task aborts the transfer.
  private static func perform(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
    let flag = HTTPCancellation()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>) in
        DetachedThread.run { continuation.resume(returning: blockingPerform(request, flag)) }
      }
    } onCancel: {
      flag.cancel()
    }
    return try result.get()
  }

  private static func blockingPerform(_ request: HTTPRequest, _ flag: HTTPCancellation) -> Result<
    HTTPResponse, HTTPTransportError
  > {
    let lines = request.headers.map { "\($0.key): \($0.value)" }
    let headers = lines.map { strdup($0) }
    defer { headers.forEach { free($0) } }
    let milliseconds = max(
      1, request.timeout.components.seconds * 1000 + request.timeout.components.attoseconds / 1_000_000_000_000_000)
    var raw = flow_http_response()
    let outcome: Int32 = headers.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerPointers in
      let perform = { (body: UnsafeRawBufferPointer?) -> Int32 in
        flow_http_perform(
          request.method, request.url.absoluteString, headerPointers.baseAddress, headerPointers.count,
          body?.baseAddress, body?.count ?? 0, Int(milliseconds), max(0, request.maximumBodySize ?? 0),
          flag.pointer, &raw)
      }
      guard let body = request.body else { return perform(nil) }
      // An empty body still needs a non-null pointer, or libcurl would read a C string from it.
      return body.isEmpty
        ? [UInt8(0)].withUnsafeBytes { perform(UnsafeRawBufferPointer(rebasing: $0[0..<0])) }
        : body.withUnsafeBytes { perform($0) }
    }
    defer { flow_http_response_free(&raw) }
    let message = withUnsafeBytes(of: raw.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    switch outcome {
    case Int32(FLOW_HTTP_OK.rawValue):
      let body = raw.body.map { Data(bytes: $0, count: raw.body_length) } ?? Data()
      let headerText =
        raw.headers.map {
          String(decoding: UnsafeRawBufferPointer(start: $0, count: raw.headers_length), as: UTF8.self)
        } ?? ""
      return .success(HTTPResponse(status: raw.status, headers: parseHeaders(headerText), body: body))
    case Int32(FLOW_HTTP_TIMED_OUT.rawValue): return .failure(.timedOut(after: request.timeout))
    case Int32(FLOW_HTTP_CANNOT_CONNECT.rawValue):
      return .failure(.cannotConnect(host: request.url.host ?? request.url.absoluteString))
    case Int32(FLOW_HTTP_CONNECTION_LOST.rawValue): return .failure(.connectionLost)
    case Int32(FLOW_HTTP_CANCELLED.rawValue): return .failure(.cancelled)
    case Int32(FLOW_HTTP_TOO_LARGE.rawValue): return .failure(.tooLarge(limit: request.maximumBodySize ?? 0))
    default: return .failure(.other(message))
    }
  }

  /// Header lines of the final response, names lower-cased; a repeated header keeps its last value.
  static func parseHeaders(_ text: String) -> [String: String] {
    var headers: [String: String] = [:]
    for line in text.split(separator: "\r\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingWhitespace().lowercased()
      headers[name] = line[line.index(after: colon)...].trimmingWhitespace()
    }
    return headers
  }
}
