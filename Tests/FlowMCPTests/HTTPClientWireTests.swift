import FlowIntents
import FlowTestSupport
import Foundation
import Synchronization
import Testing

@testable import FlowMCP

/// The client's Streamable HTTP wire against a loopback server playing an MCP server, to see exactly what
/// goes over the wire: the headers, the cancellation of a withdrawn call, the DELETE at the end, and a
/// session the server forgot.
struct HTTPClientWireTests {
  /// A server that answers `initialize` with a session, lets `tools/call` hang until told, answers
  /// `tools/list` with 404 when `forget` is set, and says when the session's DELETE came (`ended`).
  static func server(
    forget: Bool, calling: AsyncStream<Void>.Continuation, ended: AsyncStream<Void>.Continuation? = nil
  ) async throws -> LoopbackServer {
    try await LoopbackServer.start { request in
      guard request.method == "POST" else {
        ended?.yield()
        return .init(status: 405)
      }
      let message = try RPCMessage.decode(request.text)
      switch message {
      case .request(let id, "initialize", _):
        let answer = RPCMessage.response(
          id: id,
          result: [
            "protocolVersion": "2025-06-18", "capabilities": [:], "serverInfo": ["name": "mimic", "version": "1"],
          ])
        var response = LoopbackServer.Response.json(answer.encoded())
        response.headers["Mcp-Session-Id"] = "session-1"
        return response
      case .request(_, "tools/list", _) where forget: return .text("no such session", status: 404)
      case .request(_, "tools/call", _):
        calling.yield()
        return .init(status: 200, headers: ["Content-Type": "text/event-stream"], delay: .seconds(30))
      default: return .init(status: 202)
      }
    }
  }

  @Test func aWithdrawnCallIsCancelledAndTheSessionEnded() async throws {
    let (calls, calling) = AsyncStream<Void>.makeStream()
    let (ends, ended) = AsyncStream<Void>.makeStream()
    let server = try await Self.server(forget: false, calling: calling, ended: ended)
    let client = try await MCPClient.connect(name: "mimic", url: server.url("/mcp"), headers: ["X-Key": "k"])
    #expect(client.protocolVersion == "2025-06-18")
    let call = Task { try await client.callTool("slow", arguments: [:], cancelReason: "timeout") }
    var waiting = calls.makeAsyncIterator()
    await waiting.next()
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }
    client.shutdown()
    // The DELETE is the last request the client sends: every other one has been received by then.
    var ending = ends.makeAsyncIterator()
    await ending.next()
    let requests = await server.requests
    await server.stop()
    let sent = requests.map { request in
      let method = (try? RPCMessage.decode(request.text)).map { message -> String in
        switch message {
        case .request(_, let method, _), .notification(let method, _): method
        default: "answer"
        }
      }
      return
        "\(request.method) \(method ?? "-") session=\(request.headers["mcp-session-id"] ?? "none") version=\(request.headers["mcp-protocol-version"] ?? "none") key=\(request.headers["x-key"] ?? "none")"
    }
    #expect(
      sent == [
        "POST initialize session=none version=none key=k",
        "POST notifications/initialized session=session-1 version=2025-06-18 key=k",
        "POST tools/call session=session-1 version=2025-06-18 key=k",
        "POST notifications/cancelled session=session-1 version=2025-06-18 key=k",
        "DELETE - session=session-1 version=none key=k",
      ])
    #expect(requests.first?.headers["accept"] == "application/json, text/event-stream")
    #expect(requests.first?.headers["content-type"] == "application/json")
  }

  @Test func aForgottenSessionIsAClearError() async throws {
    let (_, calling) = AsyncStream<Void>.makeStream()
    let server = try await Self.server(forget: true, calling: calling)
    defer { Task { await server.stop() } }
    let client = try await MCPClient.connect(name: "mimic", url: server.url("/mcp"), headers: [:])
    defer { client.shutdown() }
    do {
      _ = try await client.listTools()
      Issue.record("tools/list succeeded")
    } catch {
      #expect(
        error.description
          == "server 'mimic' (\(server.url("/mcp").absoluteString)) ended the session (HTTP 404 to a request with its session id)"
      )
    }
  }
}
