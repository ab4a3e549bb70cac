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
    let server = try await LoopbackServer.start { _ in LoopbackServer.Response(status: 200, delay: .seconds(60)) }
    let transport = CurlTransport()
    let started = ContinuousClock.now
    await #expect(throws: HTTPTransportError.timedOut(after: .milliseconds(300))) {
      _ = try await transport.send(HTTPRequest(url: server.url("/slow"), timeout: .milliseconds(300)))
    }
    // Not a timed assertion of speed: only that the deadline is kept, not stretched to the server's
    // answer (a minute away). The bound is wide because a loaded machine (the whole suite on two cores)
    // can take seconds to schedule the task that sees the timeout.
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test func aBodyPastItsLimitIsRefusedAndOneWithinIsKept() async throws {
    let server = try await LoopbackServer.start { request in
      LoopbackServer.Response(status: 200, body: Data(repeating: 0x61, count: request.path == "/big" ? 1025 : 1024))
    }
    let transport = CurlTransport()
    let within = try await transport.send(HTTPRequest(url: server.url("/fits"), maximumBodySize: 1024))
    #expect(within.body.count == 1024)
    await #expect(throws: HTTPTransportError.tooLarge(limit: 1024)) {
      _ = try await transport.send(HTTPRequest(url: server.url("/big"), maximumBodySize: 1024))
    }
    let unlimited = try await transport.send(HTTPRequest(url: server.url("/big")))
    #expect(unlimited.body.count == 1025)
  }
}
