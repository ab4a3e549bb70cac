import FlowTestSupport
import Foundation
import Testing

/// The real `flow` binary with no terminal, as cron runs it: a workflow that would have to ask refuses
/// before its first step, and the store is left exactly as it was.
@Suite(.serialized)
struct UnattendedRunTests {
  static let flow = Machine.executable

  /// Runs the binary with standard input from /dev/null; returns its status and standard error.
  static func run(_ arguments: [String], environment: [String: String], in directory: URL) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = flow
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test func aWorkflowThatNeedsAnswersChangesNothingAndListsThemAll() throws {
    let home = try temporaryDirectory()
    let environment = [
      "NO_COLOR": "1", "HOME": home.path, "PATH": "/usr/bin:/bin",
      "XDG_DATA_HOME": home.appendingPathComponent("data").path,
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
    ]
    try """
    flow: 1
    input:
      url: url
    steps:
      - save-bookmark: ${input.url}
        as: saved
      - delete-bookmark: ${saved}
      - confirm: Keep going?
    """.write(to: home.appendingPathComponent("save-then-delete.yml"), atomically: true, encoding: .utf8)
    // A store with a bookmark in it already.
    let (seeded, _) = try Self.run(
      ["run", "save-then-delete.yml", "--input", "url=https://swift.org", "--yes"], environment: environment, in: home)
    #expect(seeded == 0)
    let store = home.appendingPathComponent("data/flow")
    let before = RaindropWorkflowTests.snapshot(store)
    #expect(before["raindrop.sqlite"] != nil)

    let (status, error) = try Self.run(["run", "save-then-delete.yml"], environment: environment, in: home)
    #expect(status == 4)
    #expect(
      error == """
        save-then-delete.yml:3:3: error: input 'url' needs a value
            3 |   url: url
              |   ^~~
              = help: pass --input url=… or run at a terminal
        save-then-delete.yml:7:5: error: step 2 'delete-bookmark' needs a confirmation (it always asks before it runs)
            7 |   - delete-bookmark: ${saved}
              |     ^~~~~~~~~~~~~~~
              = help: pass --yes, or write 'confirmations: auto' in the workflow, to confirm unattended
        save-then-delete.yml:8:5: error: step 3 'confirm' needs a confirmation: Keep going?
            8 |   - confirm: Keep going?
              |     ^~~~~~~
              = help: pass --yes, or write 'confirmations: auto' in the workflow, to confirm unattended
        found 3 errors

        """)
    #expect(RaindropWorkflowTests.snapshot(store) == before)

    // The input given, only the confirmations missing: step 1 would save a bookmark before step 2 asks.
    let (unconfirmed, unconfirmedError) = try Self.run(
      ["run", "save-then-delete.yml", "--input", "url=https://example.com"], environment: environment, in: home)
    #expect(unconfirmed == 4)
    #expect(unconfirmedError.hasSuffix("found 2 errors\n"))
    #expect(RaindropWorkflowTests.snapshot(store) == before)

    // With the answers, the same run does change the store: the comparison above can fail.
    let (answered, _) = try Self.run(
      ["run", "save-then-delete.yml", "--input", "url=https://example.com", "--yes"], environment: environment,
      in: home)
    #expect(answered == 0)
    #expect(RaindropWorkflowTests.snapshot(store) != before)
  }
}
