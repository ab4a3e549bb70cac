import FlowIntents
import Foundation
import Testing

@testable import FlowMCP

/// A server that answers `initialize` and then misbehaves: silence, or a line that never ends. Each is
/// bounded, with an error that names the server (issue 28).
struct MCPClientBoundsTests {
  /// A stdio server in sh: answers `initialize` with its id, then runs `then`.
  private func start(_ name: String, then: String) async throws -> MCPClient {
    let script = """
      read -r line
      id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p')
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}\\n' "$id"
      \(then)
      """
    return try await MCPClient.start(name: name, command: "/bin/sh", arguments: ["-c", script])
  }

  /// Silence after `initialize`: `tools/list` gives up at its timeout.
  @Test func aSilentServerTimesOut() async throws {
    let client = try await start("quiet", then: "cat > /dev/null")
    defer { client.shutdown(grace: .milliseconds(100)) }
    let error = await #expect(throws: MCPClient.Failure.self) {
      _ = try await client.listTools(timeout: .milliseconds(200))
    }
    #expect(error?.description.hasPrefix("server 'quiet' (/bin/sh -c ") == true, "\(String(describing: error))")
    #expect(error?.message == "did not answer 'tools/list' within 200 ms")
  }

  /// Silence during a tool call: the call fails once the server has said nothing for the limit.
  @Test func aToolCallThatHearsNothingEnds() async throws {
    let client = try await start("mute", then: "cat > /dev/null")
    defer { client.shutdown(grace: .milliseconds(100)) }
    let error = await #expect(throws: MCPClient.Failure.self) {
      _ = try await client.callTool("wait", arguments: [:], silence: .milliseconds(200))
    }
    #expect(error?.server == "mute")
    #expect(error?.message == "said nothing about 'tools/call' for 200 ms: no answer, no progress")
  }

  /// A line with no end (65 MiB of 'x', generated here): the reader stops at its limit and the connection
  /// ends, rather than buffering without bound.
  @Test func anEndlessLineIsCutOff() async throws {
    let client = try await start("endless", then: "head -c 68157440 /dev/zero | tr '\\0' x; cat > /dev/null")
    defer { client.shutdown(grace: .milliseconds(100)) }
    let error = await #expect(throws: MCPClient.Failure.self) { _ = try await client.listTools() }
    #expect(error?.server == "endless")
    #expect(error?.message.contains("a line longer than 67108864 bytes") == true, "\(String(describing: error))")
  }
}
