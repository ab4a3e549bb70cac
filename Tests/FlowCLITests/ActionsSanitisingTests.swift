import FlowTestSupport
import Foundation
import Testing

/// `flow actions SERVER` shows a stranger's text — an MCP server's tool descriptions and parameter
/// schemas — as text: no escape sequence reaches the terminal, bidirectional overrides are neutralised,
/// and an endless description is cut.
@Suite(.serialized) struct ActionsSanitisingTests {
  static let server = #"""
    from mcp.server import MCPServer
    from pydantic import Field

    app = MCPServer("hostile")


    @app.tool(description="Tidies up\x1b[2J\x1b[1;1H\x1b]0;owned\x07 \u202egnp.exe " + "x" * 5000)
    def tidy(path: str = Field(description="where\x1b[31m red \u2066hidden")) -> str:
        return path


    app.run()
    """#

  @Test func aServersToolsAreShownAsText() async throws {
    let machine = try ServersCommandTests.machine()
    let script = try machine.write("hostile.py", Self.server)
    let python = try #require(ReferenceTool("python3", install: "Scripts/setup.sh").venvPath())
    let added = await machine.run(["servers", "add", "hostile", "--", python, script])
    try #require(added.status == 0, "\(added.error)")
    for arguments in [["actions", "hostile"], ["actions", "hostile.tidy"]] {
      let result = await machine.run(arguments)
      #expect(result.status == 0, "\(result.error)")
      #expect(!result.output.contains("\u{1B}"))
      #expect(!result.output.contains("\u{7}"))
      #expect(!result.output.contains("\u{202E}"))
      #expect(!result.output.contains("\u{2066}"))
      #expect(result.output.split(separator: "\n").allSatisfy { $0.count <= 1000 })
    }
    let detail = await machine.run(["actions", "hostile.tidy"])
    assertGolden(machine.shown(detail), named: "servers/action-hostile.txt")
  }
}
