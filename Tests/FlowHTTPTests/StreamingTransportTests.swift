import FlowHTTP
import FlowTestSupport
import Foundation
import Testing

/// CurlTransport's streaming call against a real loopback server: the head before the body, the body
/// limit, a receiver that stops, and a cancellation from another thread while nothing arrives.
struct StreamingTransportTests {
  /// Runs a blocking transfer on a thread of its own, as its callers do.
  static func stream(
    _ request: HTTPRequest, cancellation: HTTPCancellation = HTTPCancellation(), stopAfterHead: Bool = false
  ) async -> (head: HTTPResponseHead?, body: String, result: Result<Void, HTTPTransportError>) {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var head: HTTPResponseHead?
        var body = Data()
        let result = CurlTransport().stream(
          request, limit: nil, cancellation: cancellation,
          head: {
            head = $0
            return !stopAfterHead
          },
          body: {
            body.append(contentsOf: $0)
            return true
          })
        continuation.resume(returning: (head, String(decoding: body, as: UTF8.self), result))
      }
    }
  }

  @Test func theHeadComesBeforeTheBody() async throws {
    let headers = ["Content-Type": "text/event-stream", "Mcp-Session-Id": "s1"]
    let server = try await LoopbackServer.start { _ in
      .init(status: 200, headers: headers, body: Data("data: 1\n\n".utf8))
    }
    defer { Task { await server.stop() } }
    let got = await Self.stream(HTTPRequest(method: "POST", url: server.url("/mcp"), body: Data("{}".utf8)))
    #expect(got.head?.status == 200)
    #expect(got.head?[header: "MCP-Session-Id"] == "s1")
    #expect(got.body == "data: 1\n\n")
    #expect((try? got.result.get()) != nil)

    let limited = await Self.stream(HTTPRequest(url: server.url("/mcp"), maximumBodySize: 3))
    #expect(limited.result == .failure(.tooLarge(limit: 3)))
    let stopped = await Self.stream(HTTPRequest(url: server.url("/mcp")), stopAfterHead: true)
    #expect(stopped.result == .failure(.cancelled))
    #expect(stopped.body.isEmpty)
  }

  @Test func aTransferWaitingForItsAnswerIsCancelled() async throws {
    let (arrivals, arrived) = AsyncStream<Void>.makeStream()
    let server = try await LoopbackServer.start { _ in
      arrived.yield()
      return .init(status: 200, delay: .seconds(30))
    }
    defer { Task { await server.stop() } }
    let cancellation = HTTPCancellation()
    async let got = Self.stream(HTTPRequest(url: server.url("/open")), cancellation: cancellation)
    var waiting = arrivals.makeAsyncIterator()
    await waiting.next()
    cancellation.cancel()
    #expect(await got.result == .failure(.cancelled))
  }
}

extension Result<Void, HTTPTransportError>: @retroactive Equatable {
  public static func == (a: Self, b: Self) -> Bool {
    switch (a, b) {
    case (.success, .success): true
    case (.failure(let x), .failure(let y)): x == y
    default: false
    }
  }
}
