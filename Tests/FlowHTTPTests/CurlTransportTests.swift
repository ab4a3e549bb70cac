import FlowHTTP
import FlowTestSupport
import Foundation
import Testing

/// The libcurl transport against a real loopback server.
struct CurlTransportTests {
  @Test func followsRedirectsOnTheSameHostOnly() async throws {
    let target = try await LoopbackServer.start { request in .text("reached \(request.path)") }
    let server = try await LoopbackServer.start { request in
      switch request.path {
      case "/same": LoopbackServer.Response(status: 302, headers: ["Location": "/landing"])
      case "/landing": .text("landed")
      // 'localhost' is another host name than the 127.0.0.1 the request went to.
      default:
        LoopbackServer.Response(
          status: 302,
          headers: [
            "Location": target.url("/stolen").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
          ])
      }
    }
    let transport = CurlTransport()
    let same = try await transport.send(
      HTTPRequest(url: server.url("/same"), headers: ["Authorization": "Bearer secret"]))
    #expect(same.status == 200)
    #expect(String(decoding: same.body, as: UTF8.self) == "landed")
    let elsewhere = try await transport.send(
      HTTPRequest(url: server.url("/away"), headers: ["Authorization": "Bearer secret"]))
    #expect(elsewhere.status == 302)
    #expect(await target.requests.isEmpty)
  }

  @Test func timeoutsBelowASecondAreKept() async throws {
    let server = try await LoopbackServer.start { _ in LoopbackServer.Response(status: 200, delay: .seconds(5)) }
    let transport = CurlTransport()
    let started = ContinuousClock.now
    await #expect(throws: HTTPTransportError.timedOut(after: .milliseconds(300))) {
      _ = try await transport.send(HTTPRequest(url: server.url("/slow"), timeout: .milliseconds(300)))
    }
    // Not a timed assertion of speed: only that the deadline is kept to the millisecond, not stretched.
    #expect(ContinuousClock.now - started < .seconds(3))
  }
}
