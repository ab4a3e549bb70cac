import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``HTTPTransport`` over Foundation's URLSession: a 5 s build, against minutes for a SwiftNIO client.
///
/// On Linux URLSession honours `http_proxy` even for loopback addresses; set `no_proxy=127.0.0.1,localhost`
/// when talking to a local server (`.ci/run` does).
public struct URLSessionTransport: HTTPTransport {
  /// Made on first use: creating a session starts libcurl and its TLS library, which every `flow run`
  /// would otherwise pay for at start-up, network or not. (Swift initialises static members lazily.)
  private static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }()

  public init() {}

  public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    urlRequest.timeoutInterval = Double(request.timeout.components.seconds)
      + Double(request.timeout.components.attoseconds) / 1e18
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    do {
      let (data, response) = try await Self.session.data(for: urlRequest)
      guard let http = response as? HTTPURLResponse else {
        throw HTTPTransportError.other("not an HTTP response")
      }
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name] = value }
      }
      return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    } catch let error as HTTPTransportError {
      throw error
    } catch let error as URLError {
      throw Self.map(error, request)
    } catch is CancellationError {
      throw .cancelled
    } catch {
      throw .other(String(describing: error))
    }
  }

  /// URLSession reports every failure as a URLError, cancellation included (-999, not CancellationError).
  private static func map(_ error: URLError, _ request: HTTPRequest) -> HTTPTransportError {
    switch error.code {
    case .timedOut: .timedOut(after: request.timeout)
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
      .cannotConnect(host: request.url.host ?? request.url.absoluteString)
    case .networkConnectionLost: .connectionLost
    case .cancelled: .cancelled
    default: .other(error.localizedDescription)
    }
  }
}
