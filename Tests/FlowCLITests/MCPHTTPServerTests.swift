import FlowMCPServer
import FlowTestSupport
import Foundation
import Testing

/// `flow mcp --http`, the real binary on a loopback port, against the official MCP Python SDK's
/// Streamable HTTP client (the scenarios of MCPServer/client.py, played over HTTP) and against raw
/// HTTP for what that client never sends (MCPServer/http_checks.py). Each script reads the endpoint
/// from the line the server prints once it listens, and never sleeps.
struct MCPHTTPServerTests {
  static let checks = testDirectory().appendingPathComponent("MCPServer/http_checks.py")

  static func texts(_ outcome: Any?) -> [String] { MCPServerProcessTests.texts(outcome) }
  static func isError(_ outcome: Any?) -> Bool? { MCPServerProcessTests.isError(outcome) }

  /// The handshake and the library's tools, over HTTP; the session is ended by the client's DELETE,
  /// and SIGTERM stops the server with the status Ctrl-C gives (3).
  @Test func listsTheLibrary() throws {
    let machine = try MCPServerProcessTests.machine()
    let report = try machine.play("list", ["--over-http", "--page-size", "3"])
    #expect((report["url"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
    #expect(report["protocolVersion"] as? String == "2025-11-25")
    let tools = report["tools"] as? [[String: Any]] ?? []
    #expect(tools.map { $0["name"] as? String ?? "" } == ["greet", "hold", "tidy", "tidy-auto"])
    #expect(report["pages"] as? Int == 2)
    #expect(report["exitStatus"] as? Int == 3)
  }

  /// Typed arguments in, structured output out (checked by the SDK against the listed schema); runs
  /// recorded with trigger `mcp`, as over stdio.
  @Test func callsAWorkflowWithTypedInputs() async throws {
    let machine = try MCPServerProcessTests.machine()
    let report = try machine.play("call", ["--over-http"])
    let typed = report["typed"] as? [String: Any]
    #expect(Self.isError(typed) == false)
    let result = (typed?["structuredContent"] as? [String: Any])?["result"] as? [String: Any]
    #expect(result?["greeting"] as? String == "Hello, Ada!")
    #expect(result?["times"] as? Int == 3)
    #expect(result?["tags"] as? [String] == ["a", "b"])
    #expect(Self.isError(report["wrongType"]) == true)
    #expect(Self.isError(report["invalid"]) == true)
    #expect((report["unknownTool"] as? String)?.contains("Unknown tool: gret; did you mean 'greet'?") == true)
    let runs = try await machine.runs()
    #expect(runs.count == 4)
    #expect(runs.allSatisfy { $0["trigger"] as? String == "mcp" })
  }

  /// A confirmation is an elicitation sent on the call's event stream; the client's answer comes in a
  /// POST of its own, and the run goes on (accepted) or is cancelled (declined).
  @Test func aConfirmationIsAnElicitation() async throws {
    let machine = try MCPServerProcessTests.machine()
    let accepted = try machine.play("confirm", ["--over-http"])
    let elicitations = accepted["elicitations"] as? [[String: Any]] ?? []
    #expect(elicitations.first?["message"] as? String == "Run tidy-up now?")
    #expect(Self.texts(accepted["typed"]) == ["Starting tidy-up", #"{"result":"done"}"#])
    let declined = try machine.play("decline", ["--over-http"])
    #expect(Self.isError(declined["typed"]) == true)
    let statuses = try await machine.runs().map { $0["status"] as? String ?? "" }
    #expect(statuses.sorted() == ["cancelled", "succeeded"])
  }

  /// The client abandons a call while the run asks: its `notifications/cancelled` (a POST) cancels the
  /// run, whose question is withdrawn on the call's stream; the session goes on serving.
  @Test func theClientCancelsARun() async throws {
    let machine = try MCPServerProcessTests.machine()
    let report = try machine.play("cancel", ["--over-http"])
    #expect(report["answered"] == nil)
    #expect(report["withdrawn"] as? Bool == true)
    #expect(Self.isError(report["afterwards"]) == false)
    let hold = try await machine.runs().first { $0["workflow"] as? String == "Hold" }
    #expect(hold?["status"] as? String == "cancelled")
    #expect(hold?["trigger"] as? String == "mcp")
  }

  /// What the transport refuses, and why: a page on another site (DNS rebinding), a message without
  /// its session or with one that ended, GET, another path, an unknown protocol revision, bodies too
  /// large and bytes that are not HTTP. SIGTERM during a call that waits for an answer cancels the run
  /// (recorded so) and exits 3.
  @Test func refusesWhatItMust() async throws {
    let machine = try MCPServerProcessTests.machine()
    guard
      let run = try MCPServerProcessTests.python.run(
        [Self.checks.path, Machine.executable.path], environment: machine.environment, in: machine.home)
    else { return }
    #expect(run.status == 0, "http_checks.py failed:\n\(run.error)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    func status(_ name: String) -> Int? { (report[name] as? [String: Any])?["status"] as? Int }
    func body(_ name: String) -> String { (report[name] as? [String: Any])?["body"] as? String ?? "" }
    #expect(status("foreignOrigin") == 403)
    #expect(body("foreignOrigin").contains("the Origin 'https://evil.example' is not on this machine"))
    #expect(status("foreignHost") == 403)
    #expect(status("nullOrigin") == 403)
    #expect(status("initialize") == 200)
    #expect((report["initialize"] as? [String: Any])?["contentType"] as? String == "application/json")
    #expect(report["sessionIdLength"] as? Int == 32)
    #expect(status("initialized") == 202)
    #expect(status("list") == 200)
    #expect((report["list"] as? [String: Any])?["body"] as? [String] == ["greet", "hold", "tidy", "tidy-auto"])
    #expect(status("missingSession") == 400)
    #expect(status("unknownSession") == 404)
    #expect(status("badVersion") == 400)
    #expect(body("badVersion").contains("MCP-Protocol-Version '1999-01-01' is not one flow speaks"))
    #expect(status("get") == 405)
    #expect((report["get"] as? [String: Any])?["allow"] as? String == "POST, DELETE")
    #expect(status("otherPath") == 404)
    #expect(status("notJSON") == 400)
    #expect(body("notJSON").contains("-32700"))
    #expect(status("wrongContentType") == 415)
    #expect(report["tooLarge"] as? String == "HTTP/1.1 413 Content Too Large")
    #expect(report["malformed"] as? String == "HTTP/1.1 400 Bad Request")
    #expect(report["badLength"] as? String == "HTTP/1.1 400 Bad Request")
    #expect(status("delete") == 200)
    #expect(status("afterDelete") == 404)
    let asking = report["asking"] as? [String: Any]
    #expect(asking?["contentType"] as? String == "text/event-stream")
    #expect(asking?["method"] as? String == "elicitation/create")
    #expect(asking?["message"] as? String == "Continue?")
    #expect(report["exitStatus"] as? Int == 3)
    let hold = try await machine.runs().first { $0["workflow"] as? String == "Hold" }
    #expect(hold?["status"] as? String == "cancelled")
  }

  /// An address another machine could reach is refused before anything listens: there is no
  /// authentication.
  @Test func refusesAnAddressThatIsNotLoopback() async throws {
    let machine = try MCPServerProcessTests.machine()
    var transcript = ""
    for address in ["0.0.0.0:8765", "192.168.1.20:8765", "example.com:8765", "[::]:8765", "127.0.0.1", "8765x"] {
      let result = await Machine.run(["mcp", "--http", address], in: machine.home, environment: machine.environment)
      #expect(result.status == 2, "\(address)")
      transcript += "$ flow mcp --http \(address)\n\(result.error)"
    }
    assertGolden(transcript, named: "mcp/http-address.txt")
  }
}
