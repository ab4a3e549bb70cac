import FlowTestSupport
import Foundation
import Testing

/// Failures that explain themselves (issue 30 item 2): `${run.error}` carries a command's exit status and
/// the end of its standard error, `${run.id}` is the id `flow runs` lists, a missing program names the
/// folders looked in without the whole PATH, and a run nobody started by hand that stops before step 1
/// still runs `on-failure:` (or, when the file does not read as a workflow, says so on the desktop).
struct FailureReportTests {
  static let backup = """
    flow: 1
    name: Backup
    steps:
      - show: starting
      - run-shell:
          script: |
            echo "rsync: connecting to host" >&2
            echo "rsync: connection refused (111)" >&2
            exit 12
    on-failure:
      - show: "run ${run.id} failed at ${run.error.step} with status ${run.error.status}"
      - show: "its last words: ${run.error.stderr}"

    """

  /// What `flow runs show` knows reaches `on-failure:`: the step, its status and its standard error.
  @Test func runErrorCarriesTheCommandsStatusAndStandardError() async throws {
    let machine = try HistoryCommandTests.machine()
    try machine.write("backup.yml", Self.backup)
    let arguments = ["run", "backup.yml"]
    var transcript = machine.transcript(
      arguments, await machine.run(arguments, id: "7777aaaa-0000-4000-8000-000000000007"))
    transcript += machine.transcript(["runs"], await machine.run(["runs"]))
    assertGolden(transcript, named: "failures/run-error-command.txt")
  }

  /// `status` is a number and `stderr` text to the checker: a misspelt property is caught before the run.
  @Test func runErrorPropertiesAreTyped() async throws {
    let machine = try HistoryCommandTests.machine()
    try machine.write(
      "typo.yml",
      """
      flow: 1
      steps:
        - show: hi
      on-failure:
        - calculate: ${run.error.status} + 1
        - show: ${run.error.stdrr}

      """)
    let arguments = ["validate", "typo.yml"]
    assertGolden(machine.transcript(arguments, await machine.run(arguments)), named: "failures/run-error-typo.txt")
  }

  /// A program that is not installed is named with the folders looked in, shortened: not a PATH of 300
  /// characters.
  @Test func aMissingProgramNamesTheFoldersShortly() async throws {
    let machine = try HistoryCommandTests.machine()
    try machine.write(
      "missing.yml",
      """
      flow: 1
      steps:
        - run-shell:
            command: [no-such-program-anywhere, --version]
      on-failure:
        - show: "status '${run.error.status}', message: ${run.error.message}"

      """)
    let home = machine.home.path
    let path = [
      "\(home)/.local/bin", "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin",
      "\(home)/.cargo/bin", "/usr/local/bin",
    ].joined(separator: ":")
    let arguments = ["run", "missing.yml"]
    let result = await machine.run(arguments, environment: ["PATH": path])
    #expect(!result.error.contains(path))
    assertGolden(machine.transcript(arguments, result), named: "failures/program-not-found.txt")
  }

  static let broken = """
    flow: 1
    name: Nightly
    steps:
      - shw: starting
    on-failure:
      - show: "${workflow.name} did not run: ${run.error.code} at ${run.error.place}: ${run.error.message}"

    """

  /// A scheduled run of a file an edit broke runs its `on-failure:` (the person hears of it) and still
  /// ends invalid (2); run by hand, the error is shown as always and `on-failure:` does not run.
  @Test func aScheduledRunOfAnInvalidFileStillRunsOnFailure() async throws {
    let machine = try HistoryCommandTests.machine()
    try machine.write("nightly.yml", Self.broken)
    var transcript = ""
    for (arguments, id) in [
      (["run", "nightly.yml", "--no-input", "--trigger", "scheduled"], "8888bbbb-0000-4000-8000-000000000008"),
      (["run", "nightly.yml"], "9999cccc-0000-4000-8000-000000000009"),
    ] {
      transcript += machine.transcript(arguments, await machine.run(arguments, id: id))
    }
    transcript += machine.transcript(["runs"], await machine.run(["runs"]))
    assertGolden(transcript, named: "failures/invalid-scheduled.txt")
  }

  /// An answer nobody can give (an input without a default, unattended) stops a cron run before step 1:
  /// `on-failure:` runs, and the run ends needing input (4).
  @Test func aCronRunThatNeedsAnAnswerRunsOnFailure() async throws {
    let machine = try HistoryCommandTests.machine()
    try machine.write(
      "ask.yml",
      """
      flow: 1
      name: Ask
      input:
        folder: text
        keep:
          type: number
          default: 3
      steps:
        - show: tidying ${input.folder}
      on-failure:
        - show: "not run (${run.error.code}), keeping ${input.keep}: ${run.error.message}"

      """)
    let arguments = ["run", "ask.yml", "--trigger", "cron"]
    let result = await machine.run(arguments)
    #expect(result.status == 4)
    assertGolden(machine.transcript(arguments, result), named: "failures/needs-input-cron.txt")
  }

  /// An `on-failure:` that is itself wrong cannot run: the scheduled run ends invalid with its errors.
  @Test func anInvalidOnFailureDoesNotRun() async throws {
    let machine = try HistoryCommandTests.machine()
    try machine.write(
      "both.yml",
      """
      flow: 1
      steps:
        - shw: starting
      on-failure:
        - shw: failed

      """)
    let result = await machine.run(["run", "both.yml", "--trigger", "scheduled", "--no-input"])
    #expect(result.status == 2)
    #expect(!result.error.contains("running 'on-failure'"))
    #expect(result.output.isEmpty)
  }
}

/// A file that does not read as a workflow at all has no `on-failure:` to run: a scheduled run of it
/// says so with a desktop notification, on a private session bus with a notification server stand-in.
@Suite(
  .enabled(
    if: BusStandIn.python != nil, "python3-dbusmock and python3-dbus are not installed: Scripts/setup.sh installs them")
)
struct FailureNoticeTests {
  @Test func aScheduledRunOfAFileThatDoesNotParseNotifies() async throws {
    let bus = try BusStandIn()
    defer { bus.stop() }
    try bus("start notifications")
    let machine = try HistoryCommandTests.machine()
    try machine.write("digest.yml", "flow: 1\nname: Digest\nsteps: [\n")
    let scheduled = await machine.run(
      ["run", "digest.yml", "--no-input", "--trigger", "scheduled"], environment: bus.environment)
    #expect(scheduled.status == 2)
    // By hand, the error is enough: nothing is sent.
    let byHand = await machine.run(["run", "digest.yml"], environment: bus.environment)
    #expect(byHand.status == 2)
    let shown = try bus("notifications")
    #expect(shown == "\u{201C}digest\u{201D} did not run", "\(shown)")
  }
}
