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

  /// A notification without buttons asks nothing: unattended and without a bus, the run is not stopped
  /// before step 1 as if it needed an answer (exit 4); the step fails where it is (exit 1), where
  /// `on-error:` and `on-failure:` hear of it.
  @Test func notifyWithNoSessionBusFailsAtItsStepWhenNobodyAttends() async throws {
    let directory = try Self.workflow(Self.notify)
    let result = await Machine.run(
      ["run", "desk.yml", "--no-input"], in: directory,
      environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    assertGolden(transcript(result), named: "desktop/notify-unattended-no-bus.txt")
    let caught = try Self.workflow(
      Self.notify + "\non-failure:\n  - show: \"not shown: ${run.error.message}\"\n")
    let heard = await Machine.run(
      ["run", "desk.yml", "--no-input"], in: caught,
      environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    #expect(heard.status == 1)
    #expect(heard.output.hasPrefix("not shown: cannot show a notification: no D-Bus session bus"), "\(heard.output)")
  }

  /// The gallery's battery workflow, which notifies without buttons, is not refused unattended without
  /// a bus (it was, with exit 4): its shell step runs, and the notification fails at its step.
  @Test func theGallerysBatteryWorkflowFailsAtItsNotificationWithoutABus() async throws {
    let machine = try Machine()
    let battery = DocumentationTests.root.appendingPathComponent("workflows/battery-low.yml").path
    let result = await machine.run(
      ["run", battery, "--no-input", "--trigger-event", "power=14"],
      environment: ["XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    #expect(result.status == 1, "\(result.error)")
    #expect(result.error.contains("step 2 'notify': cannot show a notification"), "\(result.error)")
  }

  /// `flow validate` in a session with no bus warns of each notification that would fail there, and
  /// says nothing of a step allowed to fail or one that waits for a button (a question, as before).
  @Test func validateWarnsOfANotificationWithNoBusToShowItOn() async throws {
    let directory = try Self.workflow(
      """
      flow: 1
      name: desk
      steps:
        - notify:
            title: Digest ready
        - notify: allowed to fail
          on-error: continue
        - notify:
            title: Archive?
            buttons: [Yes, No]

      """)
    let result = await Machine.run(
      ["validate", "desk.yml"], in: directory,
      environment: ["NO_COLOR": "1", "XDG_RUNTIME_DIR": "/nonexistent-runtime"])
    assertGolden(transcript(result), named: "desktop/validate-no-bus.txt")
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
