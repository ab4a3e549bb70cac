import FlowDiagnostics
import FlowModel
import FlowYAML
import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// Schedules in words, and the pieces the unit emitters are made of.
struct WordsAndUnitsTests {
  @Test(arguments: [
    ("0 9 * * 1-5", "at 09:00, Monday through Friday"),
    ("0 9 * * MON", "at 09:00, every Monday"),
    ("* * * * *", "every minute"),
    ("*/15 * * * *", "every 15 minutes"),
    ("30 * * * *", "every hour at :30"),
    ("0,30 * * * *", "every hour at :00 and :30"),
    ("0 */2 * * *", "every 2 hours at :00"),
    ("0 9,17 * * *", "at 09:00 and 17:00"),
    ("*/5 9-17 * * MON-FRI", "every 5 minutes from 09:00 to 17:55, Monday through Friday"),
    ("3-59/5 9-17 * * *", "every 5 minutes from 09:03 to 17:58"),
    ("*/5 9 * * *", "every 5 minutes from 09:00 to 09:55"),
    ("*/5 9,10 * * *", "every 5 minutes from 09:00 to 10:55"),
    ("*/5 9,17 * * *", "every 5 minutes in the 09:00 and 17:00 hours"),
    ("0-10 9 * * *", "every minute from 09:00 to 09:10"),
    ("0-10 9-17 * * *", "every minute from :00 to :10 from 09:00 to 17:10"),
    ("0,5,10,15,20,25,30 9 * * *", "at 09:00, 09:05, 09:10, 09:15, 09:20, 09:25 and 09:30"),
    ("0,30 9,17 * * *", "at 09:00, 09:30, 17:00 and 17:30"),
    ("0,20,40 9,12,17 * * *", "every 20 minutes in the 09:00, 12:00 and 17:00 hours"),
    ("5,10,35 9,12,17 * * *", "at :05, :10 and :35 past 09:00, 12:00 and 17:00"),
    ("0,5,10,15,20,25,30 9-11 * * *", "every hour at :00, :05, :10, :15, :20, :25 and :30, from 09:00 to 11:30"),
    ("0 9 1 * MON", "at 09:00, on the 1st of the month and every Monday"),
    ("0 9 */2 * MON", "at 09:00, every 2 days of the month from the 1st if it is Monday"),
    ("0 0 1 1 *", "at 00:00, on January 1st"),
    ("0 0 1,15 * *", "at 00:00, on the 1st and 15th of the month"),
    ("0 12 * * SAT,SUN", "at 12:00, on Saturday and Sunday"),
    ("0 6 * 6-8 *", "at 06:00, June through August"),
    ("@daily", "at 00:00"),
    ("@weekly", "at 00:00, every Sunday"),
  ])
  func words(expression: String, expected: String) throws {
    #expect(try cron(expression).words == expected)
  }

  @Test func onCalendarSaysOrWithTwoLines() throws {
    #expect(try cron("0 9 1 * MON").onCalendar(zone: "UTC") == ["Mon *-*-* 09:00:00 UTC", "*-*-01 09:00:00 UTC"])
    // A day field starting with `*` makes cron AND the two, as OnCalendar= does.
    #expect(
      try cron("0 9 */2 * MON").onCalendar(zone: "UTC") == [
        "Mon *-*-01,03,05,07,09,11,13,15,17,19,21,23,25,27,29,31 09:00:00 UTC"
      ])
    // Either day field matching every day makes every day match.
    #expect(try cron("0 0 1-31 * MON").onCalendar(zone: "UTC") == ["*-*-* 00:00:00 UTC"])
    #expect(
      try cron("*/20 8-18 * 1-3,12 SUN,SAT").onCalendar(zone: "Europe/Berlin") == [
        "Sat,Sun *-01..03,12-* 08..18:00,20,40:00 Europe/Berlin"
      ])
  }

  @Test func execStartWordsAreQuotedForSystemd() {
    #expect(SystemdUnits.quote("/usr/local/bin/flow") == "/usr/local/bin/flow")
    #expect(SystemdUnits.quote("/home/ada/My Flows/100% done.yml") == "\"/home/ada/My Flows/100%% done.yml\"")
    #expect(SystemdUnits.quote("/tmp/a\"b\\c$HOME") == "\"/tmp/a\\\"b\\\\c$$HOME\"")
  }

  @Test func crontabWordsSurviveTheShellAndCron() {
    #expect(CrontabBlock.shellQuote("/usr/bin/flow") == "/usr/bin/flow")
    #expect(CrontabBlock.shellQuote("/home/ada/it's 100%.yml") == "'/home/ada/it'\\''s 100\\%.yml'")
  }

  @Test func mergeReplacesOnlyTheBlock() {
    let block = [CrontabBlock.begin, "0 9 * * * new", CrontabBlock.end]
    let before = "A=1\n\(CrontabBlock.begin)\n0 8 * * * old\n\(CrontabBlock.end)\n# mine\n"
    #expect(CrontabBlock.merge(block, into: before) == "A=1\n\(block.joined(separator: "\n"))\n# mine\n")
    #expect(CrontabBlock.merge(block, into: "") == block.joined(separator: "\n") + "\n")
    #expect(CrontabBlock.merge(block, into: "A=1") == "A=1\n" + block.joined(separator: "\n") + "\n")
    #expect(
      CrontabBlock.zoneBeforeBlock(in: "CRON_TZ=Asia/Tokyo\n\(CrontabBlock.begin)\nCRON_TZ=UTC\n") == "Asia/Tokyo")
  }

  @Test func unitNamesAreDNSLabelsFromTheFileName() throws {
    let schedule = Schedule([Schedule.Entry(try cron("@daily"), timeZone: try zone("UTC"))])
    func workflow(_ path: String) -> ScheduledWorkflow {
      ScheduledWorkflow(name: "x", path: path, contents: "", schedule: schedule, executable: "/bin/flow")
    }
    #expect(workflow("/w/Favourites Digest.yml").unitName() == "flow-favourites-digest")
    #expect(workflow("/w/__Émile's__ list!.yaml").unitName() == "flow-mile-s-list")
    let long = workflow("/w/" + String(repeating: "very-long-name-", count: 6) + ".yml").unitName(limit: 52)
    #expect(long.count == 52)
    #expect(long.range(of: #"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$"#, options: .regularExpression) != nil)
    #expect(long != workflow("/v/" + String(repeating: "very-long-name-", count: 6) + ".yml").unitName(limit: 52))
  }

  @Test func kubernetesSchedulesAreNumbersOnly() throws {
    #expect(KubernetesManifest.schedule(try cron("0 9 * jan-mar SUN,7")) == "0 9 * 1-3 0")
    #expect(KubernetesManifest.schedule(try cron("@weekly")) == "0 0 * * 0")
    #expect(KubernetesManifest.schedule(try cron("0 9 1-31 * MON")) == "0 9 1-31 * 1")
    #expect(KubernetesManifest.problem(with: try cron("0 9 */2 * MON")) != nil)
    #expect(KubernetesManifest.problem(with: try cron("0 9 */2 * *")) == nil)
    #expect(KubernetesManifest.startingDeadline(try cron("*/5 * * * *")) == 300)
    #expect(KubernetesManifest.startingDeadline(try cron("0 9 * * MON")) == 604_800)
    #expect(KubernetesManifest.startingDeadline(try cron("0 9 1,2 * *")) == 86_400)
  }

  @Test func literalBlocksKeepTheFileExactly() {
    #expect(KubernetesManifest.block("a: 1\nb: 2\n", indent: "  ") == "|\n  a: 1\n  b: 2")
    #expect(KubernetesManifest.block("a: 1", indent: "  ") == "|-\n  a: 1")
    #expect(KubernetesManifest.block("a: 1\n\n", indent: "  ") == "|+\n  a: 1\n")
    #expect(KubernetesManifest.block("  indented\n", indent: "  ") == "\"  indented\\n\"")
  }

  // MARK: - schedule: in a workflow

  /// The workflow's schedule entries, decoded and checked, from `yaml`'s top level.
  func check(_ yaml: String) -> (entries: [ScheduleEntry], diagnostics: [String]) {
    let file = SourceFile(path: "w.yml", text: "flow: 1\n" + yaml + "steps:\n  - show: hi\n")
    let (workflow, structural) = WorkflowDecoder.decode(YAMLDocument.load(file))
    guard let workflow else { return ([], structural.map(\.message)) }
    let all = Array(structural) + Array(WorkflowSchedule.check(workflow))
    return (workflow.schedule, all.map { "\($0.span?.start.description ?? "-"): \($0.message)" })
  }

  @Test func everyFormOfSchedule() throws {
    #expect(check("schedule: 0 9 * * MON\n").entries.map(\.cron.value) == ["0 9 * * MON"])
    #expect(check("schedule: ['@daily', 0 9 * * MON]\n").entries.count == 2)
    let mapping = check("schedule: {cron: '@daily', timezone: Asia/Tokyo}\n").entries
    #expect(mapping.map(\.timezone?.value) == ["Asia/Tokyo"])
    let mixed = check(
      "timezone: UTC\nschedule:\n  - 0 9 * * *\n  - cron: [0 1 * * *, 0 2 * * *]\n    timezone: Asia/Tokyo\n")
    #expect(mixed.diagnostics.isEmpty)
    #expect(mixed.entries.map(\.timezone?.value) == [nil, "Asia/Tokyo", "Asia/Tokyo"])
  }

  @Test func theWorkflowZoneIsTheDefaultAndTheMachineZoneTheLast() throws {
    let file = SourceFile(
      path: "w.yml",
      text: "flow: 1\ntimezone: Asia/Tokyo\nschedule: ['0 9 * * *', {cron: '0 9 * * *', timezone: UTC}]\nsteps: []\n")
    let workflow = try #require(WorkflowDecoder.decode(YAMLDocument.load(file)).workflow)
    let machine = (name: "Europe/Berlin", zone: try zone("Europe/Berlin"))
    let schedule = try #require(WorkflowSchedule.schedule(of: workflow, machineZone: machine))
    #expect(schedule.entries.map(\.zoneName) == ["Asia/Tokyo", "UTC"])
    let bare = try #require(
      WorkflowDecoder.decode(
        YAMLDocument.load(SourceFile(path: "b.yml", text: "flow: 1\nschedule: '@daily'\nsteps: []\n"))
      )
      .workflow)
    #expect(WorkflowSchedule.schedule(of: bare, machineZone: machine)?.entries.map(\.zoneName) == ["Europe/Berlin"])
  }

  /// Columns inside the expression, however the scalar is written: `25` is at column 7 plain and 8 quoted.
  @Test func columnsInsideScalars() {
    #expect(check("schedule: 0 25 * * *\n").diagnostics == ["2:13: hour must be 0–23, found 25"])
    #expect(check("schedule: '0 25 * * *'\n").diagnostics == ["2:14: hour must be 0–23, found 25"])
    #expect(check("schedule: \"0 25 * * *\"\n").diagnostics == ["2:14: hour must be 0–23, found 25"])
    #expect(check("schedule: \"0\\t25 * * *\"\n").diagnostics == ["2:11: hour must be 0–23, found 25"])
  }
}
