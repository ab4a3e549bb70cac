import FlowTestSupport
import Foundation
import RaindropLocal
import RaindropStubServer
import Testing

/// The real `flow` binary at a real pseudo-terminal: what a person sees and types (SPEC §5).
@Suite(.serialized)
struct TerminalTests {
  static let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL
  /// A home of its own, so that run history and locks are this suite's alone.
  static let environment = [
    "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": (try? temporaryDirectory().path) ?? NSTemporaryDirectory(),
    "TERM": "dumb",
  ]

  /// Starts `flow run WORKFLOW` from `examples/` at `terminal`.
  static func run(_ workflow: String, at terminal: PseudoTerminal) throws -> Process {
    try terminal.spawn(Machine.executable, arguments: ["run", workflow], environment: environment, directory: examples)
  }

  @Test func valuePromptChoiceListAndConfirmation() throws {
    let terminal = try PseudoTerminal()
    let prompts = try Self.run("prompts.yml", at: terminal)
    try terminal.expect("What is your name?: ")
    terminal.send("Ada\n")
    try terminal.expect("How many cups? (Number): ")
    terminal.send("a few\n")
    try terminal.expect("expected a number, got 'a few'")
    try terminal.expect("How many cups? (Number): ")
    terminal.send("2\n")
    try terminal.expect("Choose 1-2: ")
    terminal.send("2\n")
    try terminal.expect("Ada wants 2 cups of coffee.\n")
    prompts.waitUntilExit()
    #expect(prompts.terminationStatus == 0)

    let confirm = try Self.run("confirmation.yml", at: terminal)
    try terminal.expect("Run tidy-up now? [y/N] ")
    terminal.send("y\n")
    try terminal.expect("done\n")
    confirm.waitUntilExit()
    #expect(confirm.terminationStatus == 0)
    assertGolden(terminal.transcript, named: "terminal/session.txt")
  }

  @Test func ctrlCAtAPromptCancelsWithStatus3() throws {
    let terminal = try PseudoTerminal()
    let process = try Self.run("prompts.yml", at: terminal)
    try terminal.expect("What is your name?: ")
    process.interrupt()
    try terminal.expect("cancelled\n")
    process.waitUntilExit()
    #expect(process.terminationStatus == 3)
  }

  @Test func declinedConfirmationDoesNothingFurther() throws {
    let terminal = try PseudoTerminal()
    let process = try Self.run("confirmation.yml", at: terminal)
    try terminal.expect("[y/N] ")
    terminal.send("\n")
    try terminal.expect("found 1 error\n")
    process.waitUntilExit()
    #expect(process.terminationStatus == 3)
    #expect(!terminal.transcript.contains("done"))
  }

  /// `flow auth login` at a real terminal: the token is typed with echo off, so it is nowhere in what the
  /// terminal shows, and it is checked with the stand-in before it is saved.
  @Test func authLoginDoesNotEchoTheToken() async throws {
    let home = try temporaryDirectory()
    let server = try RaindropStubServer(store: try LocalBackend(directory: home.appendingPathComponent("server")))
    let url = try await server.start()
    var environment = Self.environment
    environment["HOME"] = home.path
    environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
    environment["RAINDROP_API_URL"] = url.absoluteString
    environment["no_proxy"] = "127.0.0.1,localhost"
    let sessions = try await Self.blocking { [environment] in
      var sessions: [(transcript: String, status: Int32)] = []
      for token in ["wrong-token", "test-token"] {
        let terminal = try PseudoTerminal()
        let process = try terminal.spawn(
          Machine.executable, arguments: ["auth", "login"], environment: environment, directory: home)
        try terminal.expect("Raindrop.io token: ")
        terminal.send(token + "\n")
        try terminal.expect(token == "test-token" ? "saved the token in " : "found 1 error\n")
        process.waitUntilExit()
        sessions.append((terminal.transcript, process.terminationStatus))
      }
      return sessions
    }
    await server.stop()
    #expect(sessions.map(\.status) == [5, 0])
    let transcript = sessions.map(\.transcript).joined(separator: "---\n").replacingOccurrences(
      of: home.path, with: "$HOME")
    #expect(!transcript.contains("test-token") && !transcript.contains("wrong-token"))
    let saved = try String(contentsOf: home.appendingPathComponent("config/flow/raindrop-token"), encoding: .utf8)
    #expect(saved == "test-token\n")
    assertGolden(transcript, named: "terminal/auth-login.txt")
  }

  /// Runs blocking terminal work on a thread of its own, so that the loopback server this test started
  /// keeps the cooperative threads to answer on.
  static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }
}
