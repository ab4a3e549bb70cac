import FlowMCPServer
import FlowTestSupport
import Foundation
import Testing

/// `flow mcp`, the real binary, against the official MCP Python SDK's client (`mcp` on PyPI, installed
/// into .venv-tools by Scripts/setup.sh): listing the library, calling a workflow with typed arguments
/// and reading its structured output, a confirmation asked through elicitation, a client without
/// elicitation, and a call the client cancels. The client is MCPServer/client.py; it never sleeps.
struct MCPServerProcessTests {
  static let client = testDirectory().appendingPathComponent("MCPServer/client.py")
  static let python = ReferenceTool("python3", install: "run Scripts/setup.sh, which installs 'mcp' into .venv-tools")

  /// A home whose library holds the fixture workflows, and its own run history.
  static func machine() throws -> Machine {
    let (context, _) = try MCPServerToolsTests.home()
    return Machine(home: URL(fileURLWithPath: context.workingDirectory)) {
      [
        "HOME": $0.path, "NO_COLOR": "1", "TZ": "UTC", "XDG_DATA_HOME": "", "XDG_STATE_HOME": "",
        "XDG_CONFIG_HOME": "",
      ]
    }
  }

  static func texts(_ outcome: Any?) -> [String] { (outcome as? [String: Any])?["texts"] as? [String] ?? [] }
  static func isError(_ outcome: Any?) -> Bool? { (outcome as? [String: Any])?["isError"] as? Bool }

  /// `flow mcp` started by hand: requests written to its standard input, lines read from its standard
  /// output, which must carry nothing but protocol messages.
  struct Server {
    let process: Process
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    private var buffer: [UInt8] = []

    init(_ machine: Machine) throws {
      process = try machine.launch(
        ["mcp"], environment: ["PATH": "/usr/bin:/bin"], input: input, output: output, error: errors)
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// The next line of standard output; nil at its end.
    mutating func line() -> String? {
      while true {
        if let newline = buffer.firstIndex(of: 0x0A) {
          defer { buffer.removeFirst(newline + 1) }
          return String(decoding: buffer[..<newline], as: UTF8.self)
        }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self) }
        buffer += chunk
      }
    }

    /// Closes standard input (the client hangs up) and returns what is left on both outputs.
    mutating func hangUp() -> (rest: [String], errors: String) {
      try? input.fileHandleForWriting.close()
      var rest: [String] = []
      while let line = line() { rest.append(line) }
      process.waitUntilExit()
      return (rest, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
  }

  static let initialize =
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#

  /// What a run shows, and what the programs it starts write, never reach standard output: the protocol
  /// owns it. Every line there is a JSON-RPC message.
  @Test func standardOutputCarriesOnlyTheProtocol() throws {
    let machine = try Self.machine()
    var server = try Server(machine)
    server.send(Self.initialize)
    server.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    server.send(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"who":"Ada"}}}"#)
    server.send("not json")
    server.send(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)
    var lines: [String] = []
    while lines.count < 4, let line = server.line() { lines.append(line) }
    let (rest, errors) = server.hangUp()
    #expect(server.process.terminationStatus == 0)
    #expect(rest.isEmpty)
    let messages = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(messages.count == 4, "\(lines)")
    #expect(messages.allSatisfy { $0["jsonrpc"] as? String == "2.0" })
    #expect(Set(messages.compactMap { $0["id"] as? Int }) == [1, 2, 3])
    #expect(messages.contains { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 })
    #expect(lines.contains { $0.contains("Greeting Ada") })
    #expect(!errors.contains("Greeting Ada"))
  }

  /// A client that writes its requests and hangs up at once still gets the answers before `flow mcp`
  /// exits (listing the library takes longer than noticing the end of input).
  @Test func aClientThatHangsUpIsStillAnswered() throws {
    let machine = try Self.machine()
    var server = try Server(machine)
    server.send(Self.initialize)
    server.send(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
    let (lines, _) = server.hangUp()
    #expect(server.process.terminationStatus == 0)
    #expect(lines.count == 2)
    #expect(lines.contains { $0.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18""#) })
    #expect(lines.contains { $0.hasPrefix(#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"greet""#) })
  }

  /// The handshake, and every valid workflow listed as a tool, page by page.
  @Test func listsTheLibrary() throws {
    let machine = try Self.machine()
    let report = try machine.play("list", ["--page-size", "3"])
    #expect(report["protocolVersion"] as? String == "2025-11-25")
    #expect((report["serverInfo"] as? [String: Any])?["name"] as? String == "flow")
    let tools = report["tools"] as? [[String: Any]] ?? []
    #expect(tools.map { $0["name"] as? String ?? "" } == ["greet", "hold", "tidy", "tidy-auto"])
    #expect(report["pages"] as? Int == 2)
    let greet = try #require(tools.first)
    let schema = greet["inputSchema"] as? [String: Any]
    #expect(schema?["required"] as? [String] == ["who"])
    let properties = schema?["properties"] as? [String: [String: Any]]
    #expect(properties?["who"]?["description"] as? String == "Who should be greeted?")
    #expect(properties?["times"]?["type"] as? String == "integer")
    #expect(properties?["times"]?["default"] as? Int == 2)
    #expect((properties?["tags"]?["items"] as? [String: Any])?["type"] as? String == "string")
    #expect(greet["outputSchema"] != nil)
    let annotations = greet["annotations"] as? [String: Any]
    #expect(annotations?["readOnlyHint"] as? Bool == true)
    #expect(annotations?["openWorldHint"] as? Bool == false)
    // Standard error carries the server's own lines; standard output carried only the protocol, or the
    // client would have failed to read it.
    let stderr = report["stderr"] as? String ?? ""
    #expect(stderr.contains("'broken' is not offered as a tool"))
  }

  /// A call with typed arguments runs the workflow and gives its result as structured content, which
  /// the SDK checks against the listed output schema; bad arguments and an invalid workflow are tool
  /// errors with flow's diagnostics; an unknown tool is a protocol error. Runs are recorded with
  /// trigger `mcp`.
  @Test func callsAWorkflowWithTypedInputs() async throws {
    let machine = try Self.machine()
    let report = try machine.play("call")
    let typed = report["typed"] as? [String: Any]
    #expect(Self.isError(typed) == false)
    let structured = typed?["structuredContent"] as? [String: Any]
    let result = structured?["result"] as? [String: Any]
    #expect(result?["greeting"] as? String == "Hello, Ada!")
    #expect(result?["times"] as? Int == 3)
    #expect(result?["tags"] as? [String] == ["a", "b"])
    #expect(Self.texts(typed).first == "Greeting Ada")
    let defaults = (report["defaults"] as? [String: Any])?["structuredContent"] as? [String: Any]
    #expect((defaults?["result"] as? [String: Any])?["times"] as? Int == 2)
    #expect((defaults?["result"] as? [String: Any])?["tags"] as? [String] == ["friendly"])

    #expect(Self.isError(report["wrongType"]) == true)
    #expect(Self.isError(report["invalid"]) == true)
    assertGolden(
      (Self.texts(report["wrongType"]) + Self.texts(report["invalid"])).joined(separator: "---\n")
        .replacingOccurrences(of: machine.home.path, with: "$HOME"),
      named: "mcp/call-errors.txt")
    #expect((report["unknownTool"] as? String)?.contains("Unknown tool: gret; did you mean 'greet'?") == true)

    let runs = try await machine.runs()
    #expect(runs.count == 4)
    #expect(runs.allSatisfy { $0["trigger"] as? String == "mcp" })
    #expect(runs.map { $0["status"] as? String ?? "" }.sorted() == ["invalid", "invalid", "succeeded", "succeeded"])
  }

  /// A confirmation inside the run is an elicitation: accepted, the run goes on; declined, it is
  /// cancelled with nothing further done.
  @Test func aConfirmationIsAnElicitation() async throws {
    let machine = try Self.machine()
    let accepted = try machine.play("confirm")
    let elicitations = accepted["elicitations"] as? [[String: Any]] ?? []
    #expect(elicitations.count == 1)
    #expect(elicitations.first?["message"] as? String == "Run tidy-up now?")
    let schema = elicitations.first?["requestedSchema"] as? [String: Any]
    #expect((schema?["properties"] as? [String: [String: Any]])?["confirm"]?["type"] as? String == "boolean")
    #expect(Self.isError(accepted["typed"]) == false)
    // What the run showed, then the result's JSON (the protocol's advice for clients that read only text).
    #expect(Self.texts(accepted["typed"]) == ["Starting tidy-up", #"{"result":"done"}"#])

    let declined = try machine.play("decline")
    #expect(Self.isError(declined["typed"]) == true)
    #expect(!Self.texts(declined["typed"]).joined().contains("Starting"))
    let statuses = try await machine.runs().map { $0["status"] as? String ?? "" }
    #expect(statuses.sorted() == ["cancelled", "succeeded"])
  }

  /// A client without elicitation gets a tool error naming the confirmation (or the input) that was
  /// needed, before any step ran; `confirmations: auto` confirms by itself.
  @Test func aClientWithoutElicitationIsTold() async throws {
    let machine = try Self.machine()
    let report = try machine.play("no-elicitation")
    #expect(Self.isError(report["tidy"]) == true)
    #expect(Self.isError(report["auto"]) == false)
    #expect(Self.texts(report["auto"]) == ["Starting tidy-up", #"{"result":"done"}"#])
    #expect(Self.isError(report["missingInput"]) == true)
    assertGolden(
      (Self.texts(report["tidy"]) + Self.texts(report["missingInput"])).joined(separator: "---\n")
        .replacingOccurrences(of: machine.home.path, with: "$HOME"),
      named: "mcp/no-elicitation.txt")
    let runs = try await machine.runs()
    #expect(runs.map { $0["status"] as? String ?? "" }.sorted() == ["needs-input", "needs-input", "succeeded"])
  }

  /// The client abandons a call while the run waits for an answer: `notifications/cancelled` cancels
  /// the run, which withdraws its question, is recorded as cancelled, and releases the workflow's lock;
  /// the connection goes on serving.
  @Test func theClientCancelsARun() async throws {
    let machine = try Self.machine()
    let report = try machine.play("cancel")
    #expect(report["answered"] == nil)
    #expect(report["withdrawn"] as? Bool == true)
    #expect((report["elicitations"] as? [[String: Any]])?.first?["message"] as? String == "Continue?")
    #expect(Self.isError(report["afterwards"]) == false)
    let runs = try await machine.runs()
    let hold = runs.first { $0["workflow"] as? String == "Hold" }
    #expect(hold?["status"] as? String == "cancelled")
    #expect(hold?["trigger"] as? String == "mcp")
  }
}

extension Machine {
  /// Plays `scenario` (client.py) against `flow mcp OPTIONS…`; what the client saw.
  func play(_ scenario: String, _ options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation)
    throws -> [String: Any]
  {
    guard
      let run = try MCPServerProcessTests.python.run(
        [MCPServerProcessTests.client.path, Machine.executable.path, scenario] + options, environment: environment,
        in: home, sourceLocation: sourceLocation)
    else { return [:] }
    #expect(run.status == 0, "client.py \(scenario) failed:\n\(run.error)", sourceLocation: sourceLocation)
    guard let report = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] else {
      Issue.record("client.py printed no report:\n\(run.output)\n\(run.error)", sourceLocation: sourceLocation)
      return [:]
    }
    return report
  }

}
