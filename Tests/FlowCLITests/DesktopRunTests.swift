import FlowTestSupport
import Foundation
import Testing

/// The desktop actions as a person meets them on the command line: `get-env` checked against `env:`
/// before the run, and `notify` without a session bus, unattended (refused before step 1) and at a
/// terminal (the step fails, naming what is missing).
struct DesktopRunTests {
  static func workflow(_ text: String) throws -> URL {
    let directory = try temporaryDirectory()
    try text.write(to: directory.appendingPathComponent("desk.yml"), atomically: true, encoding: .utf8)
    return directory
  }

  @Test func getEnvOfANameNotUnderEnvIsRefusedBeforeTheRun() async throws {
    let directory = try Self.workflow(
      """
      flow: 1
      name: desk
      env: [EDITOR, HOME]
      steps:
        - get-env: HOEM
        - get-env:
            name: EDITOR
            default: vi
      """)
    let result = await Machine.run(["validate", "desk.yml"], in: directory)
    assertGolden(transcript(result), named: "desktop/get-env-not-listed.txt")
  }

  static let notify = """
    flow: 1
    name: desk
    steps:
      - notify:
          title: Digest ready
          body: 3 new favourites
      - show: done
    """

  @Test func notifyWithNoSessionBusIsRefusedBeforeStepOneWhenNobodyAttends() async throws {
    let directory = try Self.workflow(Self.notify)
    let result = await Machine.run(
      ["run", "desk.yml", "--no-input"], in: directory,
      environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    assertGolden(transcript(result), named: "desktop/notify-unattended-no-bus.txt")
  }

  @Test func notifyWithNoSessionBusFailsTheStepAtATerminal() async throws {
    let directory = try Self.workflow(Self.notify)
    let result = await Machine.run(
      ["run", "desk.yml"], in: directory, environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"],
      terminal: true)
    assertGolden(transcript(result), named: "desktop/notify-no-bus.txt")
  }

  @Test func aStepAllowedToFailOrADryRunNeedsNoSession() async throws {
    let directory = try Self.workflow(
      Self.notify.replacingOccurrences(
        of: "body: 3 new favourites", with: "body: 3 new favourites\n    on-error: continue"))
    let result = await Machine.run(
      ["run", "desk.yml", "--no-input"], in: directory,
      environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    #expect(result.status == 0, "\(result.error)")
    let plain = try Self.workflow(Self.notify)
    let dry = await Machine.run(
      ["run", "desk.yml", "--no-input", "--dry-run"], in: plain,
      environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    #expect(dry.status == 0, "\(dry.error)")
  }
}
