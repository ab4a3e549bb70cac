import FlowCLI
import FlowMCP
import FlowTestSupport
import Foundation
import Testing

/// MCP servers over Streamable HTTP, against the test server written with the official Python SDK
/// (Tests/MCPServers/test_server.py --http: a free loopback port it prints, a bearer token it checks),
/// and against loopback servers that answer what no MCP server should.
@Suite(.serialized) struct HTTPServersTests {
  /// The test server serving Streamable HTTP; stopped when the value goes.
  final class HTTPTestServer {
    let process = Process()
    let url: String

    init(token: String?) async throws {
      let python = try #require(ReferenceTool("python3", install: "Scripts/setup.sh").venvPath())
      process.executableURL = URL(fileURLWithPath: python)
      process.arguments = [ServersCommandTests.testServer.path, "--http"] + (token.map { ["--token", $0] } ?? [])
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      // The first line is its URL, printed once the port is bound: no waiting, no race for a port. Read
      // on a thread of its own: Python takes seconds to start on a busy machine, and blocking one of the
      // few threads of Swift's pool that long would starve the tests running beside this one.
      let reader = output.fileHandleForReading
      let line = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
        Thread.detachNewThread {
          var line = Data()
          while !line.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
          }
          continuation.resume(returning: line)
        }
      }
      url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      try #require(url.hasPrefix("http://127.0.0.1:"), "the test server printed no URL")
    }

    deinit {
      // SIGKILL: uvicorn's graceful stop waits for open connections without a limit.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  @Test func anHTTPServerIsACatalogue() async throws {
    let server = try await HTTPTestServer(token: "s3cret")
    let machine = try ServersCommandTests.machine()
    let add = ["servers", "add", "web", "--url", server.url, "--header-env", "Authorization=WEB_AUTH"]
    var transcript = ""
    func record(_ arguments: [String], _ result: (status: Int32, output: String, error: String)) {
      transcript += "$ flow \(arguments.joined(separator: " "))\n" + machine.shown(result) + "\n"
    }
    // The variable unset, then a token the server refuses: exit 5, naming the header and the variable.
    let unset = await machine.run(add)
    #expect(unset.status == 5)
    record(add, unset)
    let refused = await machine.run(add, environment: ["WEB_AUTH": "Bearer wrong"])
    #expect(refused.status == 5)
    record(add, refused)
    let auth = ["WEB_AUTH": "Bearer s3cret"]
    let added = await machine.run(add, environment: auth)
    #expect(added.status == 0, "\(added.error)")
    record(add, added)
    let list = await machine.run(["servers", "list"])
    record(["servers", "list"], list)
    assertGolden(transcript.replacingOccurrences(of: server.url, with: "$URL"), named: "servers/http-add.txt")

    // Only the variable's name is stored.
    let config = try String(
      contentsOf: machine.home.appendingPathComponent("config/flow/config.yml"), encoding: .utf8)
    #expect(config.contains("    url: \"\(server.url)\"\n    header-env:\n      \"Authorization\": \"WEB_AUTH\""))
    #expect(!config.contains("s3cret"))

    let actions = await machine.run(["actions", "web"])
    #expect(actions.output.contains("MCP server 'web'\n  at \(server.url)\n"), "\(actions.output)")
    #expect(actions.output.contains("web.weather — Weather"), "\(actions.output)")

    // Structured output, and progress notifications on the event stream before the answer.
    let file = try machine.write(
      "weather.yml",
      """
      flow: 1
      steps:
        - web.weather:
            city: Lisbon
            days: 2
          as: weather
        - show: "${weather.city}: ${weather.celsius} degrees, sunny ${weather.sunny}"
        - web.count: 3
        - show: counted ${previous}

      """)
    let ran = await machine.run(["run", file], environment: auth)
    #expect(ran.status == 0, "\(ran.error)")
    #expect(ran.output == "Lisbon: 23.5 degrees, sunny true\ncounted 3\n")
    // A call to an HTTP server contacts its host: the card and `flow show` say so.
    let shown = await machine.run(["show", file])
    #expect(shown.output.contains("3  Count · to 3") && shown.output.contains("contacts 127.0.0.1"), "\(shown.output)")
    let card = await machine.run(["import", "--no-input", file])
    #expect(card.status == 4)
    assertGolden(machine.shown(card).replacingOccurrences(of: server.url, with: "$URL"), named: "servers/http-card.txt")

    // Elicitation arrives on the call's event stream; its answer is POSTed while that stream is open.
    let asking = try machine.write("ask.yml", "flow: 1\nsteps:\n  - web.ask_name\n  - show: ${previous}\n")
    let unattended = await machine.run(["run", "--no-input", asking], environment: auth)
    #expect(unattended.status == 4, "\(unattended.error)")
    #expect(unattended.error.contains("What is your name?"), "\(unattended.error)")
    let answered = await machine.run(["run", asking], environment: auth, terminal: true, lines: ["Ada"])
    #expect(answered.status == 0, "\(answered.error)")
    #expect(answered.output.hasSuffix("hello Ada\n"), "\(answered.output)")

    // Progress notifications arrive on the call's event stream before its answer (one Python server
    // for the whole test: it takes seconds to start).
    let client = try await MCPClient.connect(
      name: "web", url: try #require(URL(string: server.url)), headers: ["Authorization": "Bearer s3cret"])
    let seen = Recorded()
    let counted = try await client.callTool("count", arguments: ["to": 3]) { done, total, message in
      seen.append("\(Int(done))/\(Int(total ?? 0)) \(message ?? "")")
    }
    client.shutdown()
    #expect(client.serverName == "flow-test-server")
    #expect(counted.structuredContent == ["result": 3])
    #expect(seen.values == ["1/3 step 1", "2/3 step 2", "3/3 step 3"])

    // A run whose token is missing stops before step 1.
    let missing = await machine.run(["run", "--no-input", file])
    #expect(missing.status == 5)
    #expect(missing.output.isEmpty)
    #expect(missing.error.contains("needs the header 'Authorization' from the environment variable WEB_AUTH"))
    // ...which `flow validate` knows without starting anything: a warning at the first step calling the
    // server (a scheduled run may have the variable), and nothing when it is set.
    let validated = await machine.run(["validate", file])
    #expect(validated.status == 0)
    assertGolden(machine.shown(validated), named: "servers/http-validate-unset.txt")
    let set = await machine.run(["validate", file], environment: auth)
    #expect(set.error.isEmpty, "\(set.error)")
  }

  @Test func serversThatCannotBeUsed() async throws {
    let machine = try ServersCommandTests.machine()
    var transcript = ""
    func add(_ url: String, _ environment: [String: String]) async -> Int32 {
      let arguments = ["servers", "add", "web", "--url", url]
      let result = await machine.run(arguments, environment: environment)
      transcript += "$ flow \(arguments.joined(separator: " "))\n" + machine.shown(result) + "\n"
      return result.status
    }
    // Nothing listens on the discard port.
    #expect(await add("http://127.0.0.1:9/mcp", [:]) == 5)
    let answers = try await LoopbackServer.start { request in
      switch request.path {
      case "/html": .init(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
      case "/json": .json(#"{"hello": "world"}"#)
      case "/broken": .text("Internal Server Error: the database is down", status: 500)
      // Accepts the connection, never answers `initialize`; notifications are accepted at once.
      case "/hung" where request.text.contains(#""method":"initialize""#):
        .init(status: 200, headers: ["Content-Type": "application/json"], delay: .seconds(30))
      default: .text("Not Found", status: 404)
      }
    }
    for path in ["/html", "/json", "/broken", "/nothing"] {
      #expect(await add(answers.url(path).absoluteString, [:]) == 2)
    }
    #expect(await add(answers.url("/hung").absoluteString, ["FLOW_MCP_START_TIMEOUT": "0.3"]) == 2)
    await answers.stop()
    assertGolden(
      transcript.replacingOccurrences(of: answers.baseURL.absoluteString, with: "$LOOPBACK"),
      named: "servers/http-errors.txt")
  }
}

/// Values a callback on another thread records.
private final class Recorded: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [String] = []
  func append(_ value: String) { lock.withLock { list.append(value) } }
  var values: [String] { lock.withLock { list } }
}
