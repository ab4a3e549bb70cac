import FlowCLI
import FlowIntents
import FlowSession
import FlowTestSupport
import Foundation
import Testing

@testable import FlowMCPServer

/// Everything composes (issue 30): a library workflow that calls the tools of MCP servers flow is
/// configured with runs through `flow mcp` (and a server's tool through `flow mcp --actions`) as it runs
/// through `flow run`, its servers ending with the call; a misspelt server is a did-you-mean; a block's
/// branches give their common type to what follows. Real servers written with the official Python SDK
/// (Tests/MCPServers/test_server.py, and a probe that answers with its pid), driven by the SDK's client
/// (MCPServer/client.py).
@Suite(.serialized) struct MCPServerComposesTests {
  /// A home with the test server added as `test` and a probe server as `probe`, and two library
  /// workflows calling them.
  static func machine() async throws -> Machine {
    let machine = try ServersCommandTests.machine()
    try await machine.addTestServer()
    let probe = try machine.write(
      "probe.py",
      """
      import os
      from mcp.server import MCPServer
      from mcp.types import ToolAnnotations

      app = MCPServer("probe")


      @app.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
      def pid() -> int:
          \"\"\"The server's process id.\"\"\"
          return os.getpid()


      app.run()
      """)
    let python = try #require(ReferenceTool("python3", install: "Scripts/setup.sh").venvPath())
    let added = await machine.run(["servers", "add", "probe", "--", python, probe])
    try #require(added.status == 0, "\(added.error)")
    let library = machine.home.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    try """
    flow: 1
    name: Forecast
    input:
      city:
        type: text
    steps:
      - test.weather:
          city: ${input.city}
        as: weather
      - test.echo: "${weather.city}: ${weather.celsius}"

    """.write(to: library.appendingPathComponent("forecast.yml"), atomically: true, encoding: .utf8)
    try "flow: 1\nname: Server PID\nsteps:\n  - probe.pid: {}\n".write(
      to: library.appendingPathComponent("server-pid.yml"), atomically: true, encoding: .utf8)
    return machine
  }

  /// `flow mcp` lists the workflows with their servers' output types, runs them as `flow run` does, and
  /// each call's servers end with the call, while the connection goes on (the next call starts its own).
  @Test func aWorkflowCallingServerToolsRunsThroughFlowMCP() async throws {
    let machine = try await Self.machine()
    let report = try machine.play("servers")
    let tools = report["tools"] as? [[String: Any]] ?? []
    #expect(tools.map { $0["name"] as? String ?? "" } == ["forecast", "server-pid"])
    let forecast = report["forecast"] as? [String: Any]
    #expect(MCPServerProcessTests.isError(forecast) == false, "\(MCPServerProcessTests.texts(forecast))")
    #expect((forecast?["structuredContent"] as? [String: Any])?["result"] as? String == "Lisbon: 22.5")
    let first = report["firstServer"] as? [String: Any]
    let second = report["secondServer"] as? [String: Any]
    #expect(first?["ended"] as? Bool == true, "\(first ?? [:])")
    #expect(second?["ended"] as? Bool == true, "\(second ?? [:])")
    #expect(first?["pid"] as? Int != nil && first?["pid"] as? Int != second?["pid"] as? Int)
    let runs = try await machine.runs()
    #expect(runs.map { $0["status"] as? String ?? "" } == ["succeeded", "succeeded", "succeeded"])
    #expect(runs.allSatisfy { $0["trigger"] as? String == "mcp" })
  }

  /// With `--actions`, a server's tool is a tool of `flow mcp` by its id, and its call starts the server
  /// for that call alone.
  @Test func aServersToolRunsThroughFlowMCPActions() async throws {
    let machine = try await Self.machine()
    let report = try machine.play("server-actions", ["--actions"])
    let echo = report["echo"] as? [String: Any]
    #expect(MCPServerProcessTests.isError(echo) == false, "\(MCPServerProcessTests.texts(echo))")
    #expect((echo?["structuredContent"] as? [String: Any])?["result"] as? String == "hello")
    let probe = report["firstServer"] as? [String: Any]
    #expect(probe?["ended"] as? Bool == true, "\(probe ?? [:])")
  }

  /// A server's name misspelt gets a did-you-mean at its step, as a tool's does, and is an error: the
  /// name is close to one configured here, so it is not a server meant for another machine.
  @Test func aMisspeltServerGetsADidYouMean() async throws {
    let machine = try await Self.machine()
    let file = try machine.write(
      "typos.yml",
      """
      flow: 1
      steps:
        - tset.echo: hello
        - tset.ecoh: hello
        - prboe.pid: {}
        - notes.add: x

      """)
    let result = await machine.run(["validate", file])
    #expect(result.status == 2)
    assertGolden(machine.shown(result), named: "servers/server-typo.txt")
  }

  /// A workflow ending in an `if` whose branches both give text is offered with an output schema of
  /// text, and its result comes back as structured content.
  @Test func aWorkflowEndingInABlockHasItsOutputSchema() throws {
    let (context, _) = try MCPServerToolsTests.home()
    let library = URL(fileURLWithPath: context.workingDirectory).appendingPathComponent(".local/share/flow/workflows")
    try """
    flow: 1
    name: Either
    input:
      hot:
        type: boolean
        default: false
    steps:
      - if: ${input.hot}
        then:
          - text: hot
        else:
          - text: cold

    """.write(to: library.appendingPathComponent("either.yml"), atomically: true, encoding: .utf8)
    let tools = SessionContext.$current.withValue(context) { MCPTools(context: context, actions: false).list() }
    let either = try #require(
      tools.first { tool in
        guard case .dictionary(let fields) = tool.value, case .text("either")? = fields["name"] else { return false }
        return true
      })
    guard case .dictionary(let fields) = either.value else { return }
    #expect(
      fields["outputSchema"]
        == ["type": "object", "properties": ["result": ["type": "string"]], "required": ["result"]])
  }

  /// A listing re-checks what changed and only that: a workflow whose file is rewritten, one whose
  /// nested workflow changed (its hints follow the child), one removed and one added are all what the
  /// next listing shows, from the same `MCPTools`, as `flow mcp` keeps it between requests.
  @Test func aListingSeesEveryChangeToTheLibrary() throws {
    let (context, _) = try MCPServerToolsTests.home()
    let library = URL(fileURLWithPath: context.workingDirectory).appendingPathComponent(".local/share/flow/workflows")
    func write(_ name: String, _ text: String) throws {
      try text.write(to: library.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }
    try write("parent.yml", "flow: 1\nname: Parent\nsteps:\n  - run-workflow: child\n")
    try write("child.yml", "flow: 1\nname: Child\nsteps:\n  - text: hi\n")
    let tools = MCPTools(context: context, actions: false)
    func listed() -> [String: FlowDictionary] {
      var found: [String: FlowDictionary] = [:]
      for tool in SessionContext.$current.withValue(context, operation: { tools.list() }) {
        guard case .dictionary(let fields) = tool.value, case .text(let name)? = fields["name"],
          case .dictionary(let annotations)? = fields["annotations"]
        else { continue }
        found[name] = annotations
      }
      return found
    }
    let before = listed()
    #expect(before["parent"]?["readOnlyHint"] == true)
    #expect(listed() == before)

    // The child now runs a command, in place (the same inode): the parent's hints follow.
    try write("child.yml", "flow: 1\nname: Child\nsteps:\n  - run-shell: echo hi\n")
    let after = listed()
    #expect(after["parent"]?["readOnlyHint"] == false)
    #expect(after["parent"]?["destructiveHint"] == true)
    #expect(after["child"]?["destructiveHint"] == true)

    try FileManager.default.removeItem(at: library.appendingPathComponent("greet.yml"))
    try write("added.yml", "flow: 1\nname: Added\nsteps:\n  - text: new\n")
    let names = Set(listed().keys)
    #expect(!names.contains("greet"))
    #expect(names.contains("added"))
  }
}
