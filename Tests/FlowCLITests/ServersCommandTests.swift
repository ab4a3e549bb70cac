import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// `flow servers` and MCP tools as actions, against real servers: the test server written with the official
/// Python SDK (Tests/MCPServers/test_server.py) and published servers from PyPI (`mcp-server-time`,
/// `mcp-server-git`), all installed into .venv-tools by Scripts/setup.sh. A missing one fails the test
/// (ReferenceTool), never skips it.
@Suite(.serialized) struct ServersCommandTests {
  static let testServer = testDirectory().deletingLastPathComponent().appendingPathComponent(
    "MCPServers/test_server.py")

  /// A home with its own config, state and data folders, where flow runs.
  static func machine() throws -> Machine {
    try Machine {
      [
        "NO_COLOR": "1", "COLUMNS": "100", "HOME": $0.path,
        "XDG_CONFIG_HOME": $0.appendingPathComponent("config").path,
        "XDG_STATE_HOME": $0.appendingPathComponent("state").path,
        "XDG_DATA_HOME": $0.appendingPathComponent("data").path,
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      ]
    }
  }

  @Test func addListShowAndRemove() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let list = await machine.run(["servers", "list"])
    #expect(list.status == 0)
    #expect(list.output.contains("test_server.py  (8 tools)"), "\(list.output)")
    let show = await machine.run(["servers", "show", "test"])
    assertGolden(
      machine.shown(show).replacingOccurrences(of: #"hash [0-9a-f]{12}"#, with: "hash …", options: .regularExpression),
      named: "servers/show.txt")
    let actions = await machine.run(["actions", "test.weather"])
    assertGolden(machine.shown(actions), named: "servers/action-weather.txt")
    let config = try String(
      contentsOf: machine.home.appendingPathComponent("config/flow/config.yml"), encoding: .utf8)
    #expect(config.contains("servers:\n  test:\n    command: "))
    let removed = await machine.run(["servers", "remove", "test"])
    #expect(removed.status == 0)
    let gone = await machine.run(["actions", "test.weather"])
    #expect(gone.status == 2)
  }

  @Test func diagnosticsForServersAndTools() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let file = try machine.write(
      "bad.yml",
      """
      flow: 1
      steps:
        - test.wether:
            city: Lisbon
        - test.weather:
            city: Lisbon
            days: many
        - notes.add: x
        - test.echo:
            txt: hello

      """)
    let result = await machine.run(["validate", file])
    #expect(result.status == 2)
    assertGolden(machine.shown(result), named: "servers/validate-diagnostics.txt")
  }

  /// A server may list no tools (here `flow mcp` over an empty library): `flow actions` says so, and a
  /// step calling one is told the server has none rather than given an empty list.
  @Test func aServerWithNoTools() async throws {
    let machine = try Self.machine()
    let added = await machine.run(["servers", "add", "empty", "--", Machine.executable.path, "mcp"])
    try #require(added.status == 0, "\(added.error)")
    let actions = await machine.run(["actions", "empty"])
    #expect(actions.status == 0)
    #expect(actions.output.hasSuffix("no tools: the server lists none\n"), "\(actions.output)")
    let file = try machine.write("greet.yml", "flow: 1\nsteps:\n  - empty.greet: Ada\n")
    let result = await machine.run(["validate", file])
    #expect(result.status == 2)
    #expect(result.error.contains("it lists no tools; 'flow servers refresh empty' asks it again"), "\(result.error)")
  }

  @Test func aWorkflowCallsToolsWithTypedOutput() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let file = try machine.write(
      "weather.yml",
      """
      flow: 1
      steps:
        - test.weather:
            city: Lisbon
            days: 2
          as: weather
        - show: "${weather.city}: ${weather.celsius} degrees, sunny ${weather.sunny}"
        - test.echo: hello ${weather.city}
        - show: ${previous}
        - test.count: 3
        - show: counted ${previous}

      """)
    let result = await machine.run(["run", file])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "Lisbon: 23.5 degrees, sunny true\nhello Lisbon\ncounted 3\n")
  }

  /// A tool's progress notifications draw a bar at a terminal (the real binary at a real pseudo-terminal),
  /// with the server's message, cleared when the step ends; piped, or with `--json`, nothing is drawn.
  @Test func progressNotificationsDrawABarAtATerminal() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let file = try machine.write("count.yml", "flow: 1\nsteps:\n  - test.count: 3\n  - show: counted ${previous}\n")
    var environment = machine.environment
    environment["TERM"] = "dumb"
    environment.removeValue(forKey: "COLUMNS")
    let transcript = try await TerminalTests.blocking { [environment, directory = machine.home] in
      let terminal = try PseudoTerminal()
      terminal.resize(columns: 80)
      let process = try terminal.spawn(
        Machine.executable, arguments: ["run", file], environment: environment, directory: directory)
      try terminal.expect("counted 3\n")
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      return terminal.transcript
    }
    // Each carriage return starts a line of the golden, so that every drawing of the bar can be read.
    assertGolden(transcript.replacingOccurrences(of: "\r", with: "\\r\n"), named: "servers/progress-terminal.txt")

    let piped = await machine.run(["run", file])
    #expect(piped.status == 0)
    #expect(piped.output == "counted 3\n")
    #expect(piped.error.isEmpty, "\(piped.error)")
    let json = await machine.run(["run", "--json", file], terminal: true)
    #expect(json.status == 0)
    #expect(!json.error.contains("█") && !json.error.contains("step 1"), "\(json.error)")
  }

  @Test func theExampleRuns() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let example = testDirectory().appendingPathComponent("../../examples/mcp/weather.yml").standardizedFileURL.path
    let validated = await machine.run(["validate", example])
    #expect(validated.status == 0, "\(validated.error)")
    let result = await machine.run(["run", example])
    assertGolden(machine.shown(result), named: "examples/mcp-weather.txt")
  }

  @Test func toolErrorsCrashesAndUnansweredQuestionsFailTheStep() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let failing = try machine.write("fail.yml", "flow: 1\nsteps:\n  - test.fail: the disk is full\n")
    let failed = await machine.run(["run", "--no-input", failing])
    #expect(failed.status == 1)
    #expect(failed.error.contains("tool 'fail' of server 'test' failed: "), "\(failed.error)")
    #expect(failed.error.contains("the disk is full"))

    let crashing = try machine.write("crash.yml", "flow: 1\nsteps:\n  - test.crash\n")
    let crashed = await machine.run(["run", "--no-input", crashing])
    #expect(crashed.status == 1)
    #expect(crashed.error.contains("server 'test' ("), "\(crashed.error)")
    #expect(crashed.error.contains("exited with status 3"), "\(crashed.error)")
    #expect(crashed.error.contains("about to crash: simulated failure"), "\(crashed.error)")

    let asking = try machine.write("ask.yml", "flow: 1\nsteps:\n  - test.ask_name\n  - show: ${previous}\n")
    let unattended = await machine.run(["run", "--no-input", asking])
    #expect(unattended.status == 4, "\(unattended.error)")
    #expect(unattended.error.contains("What is your name?"), "\(unattended.error)")
    let answered = await machine.run(["run", asking], terminal: true, lines: ["Ada"])
    #expect(answered.status == 0, "\(answered.error)")
    #expect(answered.output.hasSuffix("hello Ada\n"), "\(answered.output)")

    // A destructive tool asks, like delete-bookmark; unattended it needs --yes.
    let deleting = try machine.write(
      "delete.yml", "flow: 1\nsteps:\n  - test.delete_note: groceries\n  - show: ${previous}\n")
    let refused = await machine.run(["run", "--no-input", deleting])
    #expect(refused.status == 4, "\(refused.error)")
    let confirmed = await machine.run(["run", "--no-input", "--yes", deleting])
    #expect(confirmed.status == 0, "\(confirmed.error)")
    #expect(confirmed.output == "deleted groceries\n")
  }

  @Test func aStaleCacheStopsTheRunBeforeStepOne() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let cache = machine.home.appendingPathComponent("state/flow/servers/test.json")
    var text = try String(contentsOf: cache, encoding: .utf8)
    // The cache says `echo` takes `message`; the server says `text`.
    text = text.replacingOccurrences(of: "\"text\": {", with: "\"message\": {")
    try text.write(to: cache, atomically: true, encoding: .utf8)
    let file = try machine.write(
      "stale.yml", "flow: 1\nsteps:\n  - show: step one ran\n  - test.echo:\n      message: hi\n")
    let result = await machine.run(["run", "--no-input", file])
    #expect(result.status == 2)
    #expect(!result.output.contains("step one ran"))
    assertGolden(machine.shown(result), named: "servers/stale-cache.txt")
  }

  /// A workflow naming a server this machine has not configured: validate warns (its tool cannot be
  /// checked), the card and `flow show` list it as not configured beside the configured one and its
  /// command, import refuses without --yes naming the server to add, and a run stops before step 1.
  @Test func aServerNotConfiguredHere() async throws {
    let machine = try Self.machine()
    try await machine.addTestServer()
    let file = try machine.write(
      "notes.yml",
      """
      flow: 1
      name: Weather Notes
      steps:
        - show: step one ran
        - test.weather:
            city: Lisbon
        - notes.add:
            text: ${previous.city}
        - test.weather: ${previous}
        - test.echo: done

      """)
    let validated = await machine.run(["validate", file])
    #expect(validated.status == 0)
    assertGolden(machine.shown(validated), named: "servers/unconfigured-validate.txt")

    let shown = await machine.run(["show", file])
    #expect(shown.status == 0)
    assertGolden(machine.shown(shown), named: "servers/unconfigured-show.txt")

    let refused = await machine.run(["import", file])
    #expect(refused.status == 4)
    assertGolden(machine.shown(refused), named: "servers/unconfigured-import.txt")
    let library = machine.home.appendingPathComponent("data/flow/workflows/weather-notes.yml")
    #expect(!FileManager.default.fileExists(atPath: library.path))
    let imported = await machine.run(["import", "--yes", file])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(FileManager.default.fileExists(atPath: library.path))

    let run = await machine.run(["run", "--no-input", "weather-notes"])
    #expect(run.status == 2)
    #expect(!run.output.contains("step one ran"))
    assertGolden(machine.shown(run), named: "servers/unconfigured-run.txt")
  }

  @Test func aSharedFileCannotDeclareServers() async throws {
    let machine = try Self.machine()
    let file = try machine.write(
      "shared.yml",
      """
      flow: 1
      mcpServers:
        notes: {command: curl, args: [evil.example]}
      steps:
        - notes.add: x

      """)
    let result = await machine.run(["validate", file])
    #expect(result.status == 2)
    assertGolden(machine.shown(result), named: "servers/declared-in-workflow.txt")
  }

  @Test func importReadsClaudeDesktopsFile() async throws {
    let machine = try Self.machine()
    let time = try #require(ReferenceTool("mcp-server-time", install: "Scripts/setup.sh").path())
    let file = try machine.write(
      "claude_desktop_config.json",
      """
      {"mcpServers": {"Time Server": {"command": "\(time)", "args": ["--local-timezone=UTC"]},
                      "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}}}}
      """)
    let result = await machine.run(["servers", "import", file])
    #expect(result.status == 0, "\(result.error)")
    let config = try String(
      contentsOf: machine.home.appendingPathComponent("config/flow/config.yml"), encoding: .utf8)
    #expect(config.contains("  time-server:\n    command: "), "\(config)")
    #expect(config.contains("    header-env:\n      \"Authorization\": \"AUTHORIZATION\""), "\(config)")
    #expect(!config.contains("Bearer"))
    // Published servers from PyPI: mcp-server-time's tools run offline.
    let workflow = try machine.write(
      "time.yml",
      """
      flow: 1
      steps:
        - time-server.convert_time:
            source_timezone: Europe/Lisbon
            time: "12:00"
            target_timezone: Asia/Tokyo
          as: converted
        - show: ${converted.target.datetime}

      """)
    let run = await machine.run(["run", "--no-input", workflow])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("T21:00:00+09:00"), "\(run.output)")
  }

  @Test func mcpServerGitListsItsToolsOffline() async throws {
    let machine = try Self.machine()
    let git = try #require(ReferenceTool("mcp-server-git", install: "Scripts/setup.sh").path())
    let added = await machine.run(["servers", "add", "git", "--", git])
    #expect(added.status == 0, "\(added.error)")
    #expect(added.output.contains("git.git_status"), "\(added.output)")
    let file = try machine.write(
      "git.yml", "flow: 1\nsteps:\n  - git.git_status:\n      repo_path: /tmp\n  - git.git_stauts: {}\n")
    let checked = await machine.run(["validate", file])
    #expect(checked.status == 2)
    #expect(checked.error.contains("did you mean 'git.git_status'?"), "\(checked.error)")
  }
}

extension ReferenceTool {
  /// The tool in .venv-tools only (the system's python3 has no `mcp`), or a recorded issue.
  func venvPath(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let path = "\(Self.toolsDirectory)/\(name)"
    guard FileManager.default.isExecutableFile(atPath: path),
      FileManager.default.fileExists(atPath: "\(Self.toolsDirectory)/mcp")
    else {
      Issue.record("'\(path)' with the 'mcp' package is not installed: \(install)", sourceLocation: sourceLocation)
      return nil
    }
    return path
  }
}

extension Machine {
  /// Output with the machine's paths replaced, for goldens.
  func shown(_ result: Result) -> String {
    FlowCLITests.transcript(result).replacingOccurrences(of: home.path, with: "$HOME")
      .replacingOccurrences(of: ReferenceTool.toolsDirectory, with: "$VENV")
      .replacingOccurrences(of: ServersCommandTests.testServer.path, with: "$TESTS/test_server.py")
  }

  /// Adds the test server as `test`.
  func addTestServer() async throws {
    let python = try #require(ReferenceTool("python3", install: "Scripts/setup.sh").venvPath())
    let added = await run(["servers", "add", "test", "--", python, ServersCommandTests.testServer.path])
    try #require(added.status == 0, "\(added.error)")
  }
}
