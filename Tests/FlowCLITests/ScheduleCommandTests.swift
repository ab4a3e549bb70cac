import FlowCLI
import FlowIntents
import FlowSession
import FlowTestSupport
import Foundation
import Testing

@testable import FlowScheduler

/// `flow schedule next|explain|install`, and `schedule:` checked like the rest of a workflow.
struct ScheduleCommandTests {
  static let schedules = testDirectory().appendingPathComponent("Schedules")
  static let root = testDirectory().appendingPathComponent("../..").standardizedFileURL
  /// What `flow schedule install` writes as the binary: this test process.
  static let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""

  /// A temporary HOME with the XDG folders inside it, and a fixed zone.
  static func environment(_ home: URL, zone: String = "Europe/Berlin") -> [String: String] {
    [
      "NO_COLOR": "1", "TZ": zone, "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_DATA_HOME": home.appendingPathComponent("data").path, "PATH": "/usr/bin:/bin",
    ]
  }

  /// `text` with this machine's paths replaced, so goldens hold on any checkout.
  static func portable(_ text: String, _ paths: [(String, String)] = []) -> String {
    var text = text.replacingOccurrences(of: executable, with: "/usr/local/bin/flow")
    for (path, name) in paths { text = text.replacingOccurrences(of: path, with: name) }
    return text.replacingOccurrences(of: schedules.path, with: "SCHEDULES").replacingOccurrences(
      of: root.path, with: "ROOT")
  }

  // MARK: - Checking

  @Test(arguments: ["bad-fields", "quoting", "macros", "zones", "shapes", "empty"])
  func badSchedulesAreReportedWhereTheyAre(name: String) async throws {
    let result = await Machine.run(["validate", "\(name).yml"], in: Self.schedules)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "schedule/\(name).txt")
  }

  @Test func everyBadFieldHasItsDiagnostic() async {
    let result = await Machine.run(["validate", "--json", "bad-fields.yml"], in: Self.schedules)
    let lines =
      (try? String(contentsOf: Self.schedules.appendingPathComponent("bad-fields.yml"), encoding: .utf8))?
      .split(separator: "\n", omittingEmptySubsequences: false) ?? []
    let expressions = lines.filter { $0.hasPrefix("  - ") && !$0.hasPrefix("  - show") }.count
    #expect(expressions == 25)
    #expect(result.output.components(separatedBy: "\"severity\" : \"error\"").count - 1 == expressions)
  }

  @Test func runChecksTheScheduleBeforeAnyStep() async {
    let result = await Machine.run(["run", "zones.yml"], in: Self.schedules)
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(result.error.contains("zones.yml:3:11: error: unknown time zone 'Mars/Olympus'"))
  }

  @Test func validSchedulesPass() async {
    let result = await Machine.run(["validate", "two-zones.yml", "stepped-days.yml"], in: Self.schedules)
    #expect(result.status == 0, "\(result.error)")
  }

  // MARK: - next

  @Test func theFavouritesDigestFiresOnMondaysAtNine() async throws {
    let home = try temporaryDirectory()
    let console = BufferConsole()
    var context = SessionContext(
      console: console, environment: Self.environment(home), workingDirectory: Self.root.path,
      clock: FixedClock(now: Date(timeIntervalSince1970: 1_795_000_000)))  // Wed 2026-11-18
    context.handlesInterrupts = false
    let status = await FlowCommand.main(
      arguments: ["schedule", "next", "workflows/favourites-digest.yml", "--count", "3"], context: context)
    #expect(status == 0, "\(console.error)")
    #expect(
      console.output == "2026-11-23T09:00:00+01:00\n2026-11-30T09:00:00+01:00\n2026-12-07T09:00:00+01:00\n")
  }

  @Test func severalExpressionsAndZonesMergeIntoOneStream() async throws {
    let home = try temporaryDirectory()
    let result = await Machine.run(
      ["schedule", "next", "two-zones.yml", "--from", "2027-03-25T12:00:00Z", "--count", "6"], in: Self.schedules,
      environment: Self.environment(home))
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output == """
        2027-03-26T09:00:00+01:00
        2027-03-26T17:00:00-04:00
        2027-03-29T09:00:00+02:00
        2027-03-30T09:00:00+02:00
        2027-03-31T09:00:00+02:00
        2027-04-01T00:00:00-04:00

        """)
    let json = await Machine.run(
      [
        "schedule", "next", "two-zones.yml", "stepped-days.yml", "--from", "2027-03-31T12:00:00Z", "--count", "2",
        "--json",
      ],
      in: Self.schedules, environment: Self.environment(home))
    #expect(json.status == 0)
    assertGolden(json.output, named: "schedule/next.json.txt")
  }

  @Test func severalWorkflowsAreListedUnderTheirPaths() async throws {
    let home = try temporaryDirectory()
    let result = await Machine.run(
      ["schedule", "next", "two-zones.yml", "stepped-days.yml", "--from", "2027-01-01T00:00:00Z", "--count", "2"],
      in: Self.schedules, environment: Self.environment(home, zone: "UTC"))
    #expect(
      result.output
        == "two-zones.yml:\n2027-01-01T00:00:00-05:00\n2027-01-01T09:00:00+01:00\n\nstepped-days.yml:\n2027-01-11T09:00:00+00:00\n2027-01-25T09:00:00+00:00\n"
    )
  }

  /// Without WORKFLOW, every scheduled workflow of the library: what `flow schedule` runs (the SPEC's
  /// `flow schedule --list`).
  @Test func withoutWorkflowsEveryScheduledWorkflowOfTheLibrary() async throws {
    let home = try temporaryDirectory()
    let library = home.appendingPathComponent("data/flow/workflows")
    let env = Self.environment(home, zone: "UTC")
    let empty = await Machine.run(["schedule", "next"], in: home, environment: env)
    #expect(empty.status == 0)
    #expect(empty.output.isEmpty)
    #expect(empty.error == "no workflow in \(library.path) has a schedule\n")

    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    for name in ["two-zones.yml", "stepped-days.yml", "unscheduled.yml"] {
      try FileManager.default.copyItem(
        at: Self.schedules.appendingPathComponent(name), to: library.appendingPathComponent(name))
    }
    let result = await Machine.run(
      ["schedule", "next", "--from", "2027-01-01T00:00:00Z", "--count", "1"], in: home, environment: env)
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output
        == "\(library.path)/stepped-days.yml:\n2027-01-11T09:00:00+00:00\n\n\(library.path)/two-zones.yml:\n2027-01-01T00:00:00-05:00\n"
    )
  }

  /// `flow schedule WORD` schedules a workflow; a word that names none but nearly names a subcommand
  /// is a typo, refused before a scheduler starts.
  @Test func aMistypedSubcommandDoesNotStartTheScheduler() async throws {
    let home = try temporaryDirectory()
    let result = await Machine.run(["schedule", "nxt"], in: home, environment: Self.environment(home))
    #expect(result.status == 2)
    #expect(
      result.error == """
        error: unknown command 'nxt'
              = help: did you mean 'next'?
              = help: a workflow 'nxt' would be looked for in the library and ./workflows
        found 1 error

        """)
  }

  /// The machine's zone comes from TZ in each of the forms it takes.
  @Test(arguments: ["Asia/Tokyo", ":Asia/Tokyo", "/usr/share/zoneinfo/Asia/Tokyo"])
  func theMachineZoneIsReadFromTZ(tz: String) async throws {
    let home = try temporaryDirectory()
    let result = await Machine.run(
      ["schedule", "next", "stepped-days.yml", "--from", "2027-01-01T00:00:00Z", "--count", "1"], in: Self.schedules,
      environment: Self.environment(home, zone: tz))
    #expect(result.output == "2027-01-11T09:00:00+09:00\n", "\(result.error)")
  }

  @Test func nextRefusesWhatItCannotAnswer() async throws {
    let home = try temporaryDirectory()
    let env = Self.environment(home)
    let unscheduled = await Machine.run(
      ["schedule", "next", "unscheduled.yml", "zones.yml"], in: Self.schedules, environment: env)
    #expect(unscheduled.status == 2)
    assertGolden(transcript(unscheduled), named: "schedule/next-refused.txt")
    let count = await Machine.run(
      ["schedule", "next", "two-zones.yml", "--count", "0"], in: Self.schedules, environment: env)
    #expect(count.status == 2)
    #expect(count.error.contains("--count must be 1–100000"))
    // A negative count is a count, not an option: it gets the same message.
    let negative = await Machine.run(
      ["schedule", "next", "two-zones.yml", "--count", "-1"], in: Self.schedules, environment: env)
    #expect(negative.error.hasPrefix("error: --count must be 1–100000"), "\(negative.error)")
    let from = await Machine.run(
      ["schedule", "next", "two-zones.yml", "--from", "monday"], in: Self.schedules, environment: env)
    #expect(from.status == 2)
    #expect(from.error.contains("--from 'monday' is not an ISO 8601 time"))
  }

  // MARK: - explain

  @Test func explainSaysItInWords() async {
    let result = await Machine.run(["schedule", "explain", "0 9 * * 1-5"], in: Self.schedules)
    #expect(result.status == 0)
    #expect(result.output == "at 09:00, Monday through Friday\n")
    // Unquoted, the fields come as words; a '*' the shell expanded into file names gets the reason.
    let words = await Machine.run(["schedule", "explain", "30", "6", "1", "JAN", "MON"], in: Self.schedules)
    #expect(words.output == "at 06:30, on the 1st of the month and every Monday, in January\n", "\(words.error)")
    let globbed = await Machine.run(
      ["schedule", "explain", "0", "9", "README.md", "Package.swift", "*"], in: Self.schedules)
    #expect(globbed.status == 2)
    #expect(globbed.error.contains("= help: quote the expression, as in flow schedule explain '0 9 * * 1-5'"))
  }

  @Test func explainPointsAtTheBadField() async {
    var transcripts = ""
    for expression in ["0 25 * * *", "@reboot", "*/15 * * * MON-SUN", "0 9 * * * *"] {
      let result = await Machine.run(["schedule", "explain", expression], in: Self.schedules)
      #expect(result.status == 2)
      transcripts += "$ flow schedule explain '\(expression)'\n" + transcript(result) + "\n"
    }
    assertGolden(transcripts, named: "schedule/explain-errors.txt")
  }
}

/// A clock that stays at one instant.
struct FixedClock: FlowClock {
  let now: Date
  func sleep(for duration: Duration) async throws {}
}
