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
    return URLSession(configuration: configuration, delegate: SameHostRedirects(), delegateQueue: nil)
  }()

  public init() {}

  /// Sends `request`, giving up after exactly its timeout.
  ///
  /// The deadline is kept here rather than left to URLSession: on Linux it truncates its timeout to
  /// whole seconds, so a 200 ms timeout failed at once and 1.5 s after one second. URLSession gets the
  /// timeout rounded up, plus a second, as a backstop.
  public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
    let outcome = await withTaskGroup(of: Result<HTTPResponse, HTTPTransportError>?.self) { group in
      group.addTask { await Self.perform(request) }
      group.addTask {
        // Cancelled, and so returning nil, as soon as the answer comes.
        guard (try? await Task.sleep(for: request.timeout)) != nil else { return nil }
        return .failure(.timedOut(after: request.timeout))
      }
      var first: Result<HTTPResponse, HTTPTransportError>?
      for await result in group {
        if let result {
          first = result
          break
        }
      }
      group.cancelAll()
      return first ?? .failure(.cancelled)
    }
    return try outcome.get()
  }

  private static func perform(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPTransportError> {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    urlRequest.timeoutInterval = Double(request.timeout.components.seconds + 2)
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    do {
      let (data, response) = try await session.data(for: urlRequest)
      guard let http = response as? HTTPURLResponse else { return .failure(.other("not an HTTP response")) }
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name] = value }
      }
      return .success(HTTPResponse(status: http.statusCode, headers: headers, body: data))
    } catch let error as URLError {
      return .failure(map(error, request))
    } catch is CancellationError {
      return .failure(.cancelled)
    } catch {
      return .failure(.other(String(describing: error)))
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

/// Follows redirects only within one host and scheme.
///
/// Linux URLSession copies every request header, `Authorization` included, onto a redirected request;
/// a redirect elsewhere would hand the Raindrop.io token to another host. Such a redirect is not
/// followed: the 3xx answer comes back as it is.
private final class SameHostRedirects: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let from = task.originalRequest?.url
    let to = request.url
    let sameHost =
      from?.host?.lowercased() == to?.host?.lowercased() && from?.scheme == to?.scheme && from?.port == to?.port
    completionHandler(sameHost ? request : nil)
  }
}
