import FlowTestSupport
import Foundation
import Testing

/// The real `flow` binary at a real pseudo-terminal: what a person sees and types (SPEC §5).
@Suite(.serialized)
struct TerminalTests {
  /// The `flow` executable, built beside the test bundle.
  static let flow = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "flow")
  static let examples = testDirectory().appendingPathComponent("../../examples").standardizedFileURL
  /// A home of its own, so that run history and locks are this suite's alone.
  static let environment = [
    "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": (try? temporaryDirectory().path) ?? NSTemporaryDirectory(),
    "TERM": "dumb",
  ]

  /// Starts `flow run WORKFLOW` from `examples/` at `terminal`.
  static func run(_ workflow: String, at terminal: PseudoTerminal) throws -> Process {
    try terminal.spawn(flow, arguments: ["run", workflow], environment: environment, directory: examples)
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
    assertGolden(terminal.transcript, named: "terminal-session.txt")
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
}
