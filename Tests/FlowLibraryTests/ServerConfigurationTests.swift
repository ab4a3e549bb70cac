import FlowDiagnostics
import FlowLibrary
import Foundation
import Testing

/// config.yml's `servers:`: read back what `flow servers` writes, and leave the rest of the file alone.
struct ServerConfigurationTests {
  let time = ServerConfiguration(
    name: "time",
    transport: .stdio(command: "uvx", arguments: ["mcp-server-time", "--tz=\"UTC\""], environment: ["TZ": "UTC"]))
  let docs = ServerConfiguration(
    name: "docs", transport: .http(url: "https://example.com/mcp", headerEnvironment: ["Authorization": "DOCS"]))

  @Test func writtenServersReadBackAndTheRestIsKept() throws {
    let original = "# my settings\nbackend: local\nservers:\n  old:\n    command: x\n\n# history below\nhistory: off\n"
    let text = Configuration.replacingServers(in: original, with: [time, docs])
    #expect(text.hasPrefix("# my settings\nbackend: local\nservers:\n  time:\n"))
    #expect(text.hasSuffix("\n# history below\nhistory: off\n"))
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).yml")
    try text.write(to: url, atomically: true, encoding: .utf8)
    let loaded = try Configuration.load(url)
    #expect(loaded.servers == [time, docs])
    #expect(loaded.history.enabled == false)
    #expect(
      Configuration.replacingServers(in: text, with: [])
        == "# my settings\nbackend: local\n\n# history below\nhistory: off\n")
  }

  @Test func aServerWithoutACommandOrWithAnUnknownKeyIsADiagnostic() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).yml")
    try "servers:\n  time:\n    comand: uvx\n".write(to: url, atomically: true, encoding: .utf8)
    #expect(throws: Diagnostic.self) { try Configuration.load(url) }
    do {
      _ = try Configuration.load(url)
    } catch {
      #expect(error.message == "unknown server setting 'comand'")
      #expect(error.helps == ["did you mean 'command'?"])
    }
  }

  @Test func commandLinesAreQuotedForShells() {
    #expect(time.commandLine == "uvx mcp-server-time '--tz=\"UTC\"'")
  }
}
