import FlowCLI
import FlowIntents
import FlowTestSupport
import Foundation
import Testing

/// Workflow inputs of type date take the words `ask` and get-dates-from-input take (issue 14, item 5):
/// from `--input`, from the prompt and as `default:`, read on the run's clock in the system's zone.
struct DateInputTests {
  static let clock = ManualClock(now: FixedTime.now)

  /// `days` days after the start of the clock's day, in the system's zone, as `show` writes a date.
  static func day(_ days: Int) throws -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let date = try #require(calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: FixedTime.now)))
    return DateParsing.format(date) + "\n"
  }

  func workflow(default value: String? = nil) throws -> URL {
    let directory = try temporaryDirectory()
    let declaration = value.map { "\n    type: date\n    default: \($0)" } ?? " date"
    try """
    flow: 1
    input:
      when:\(declaration)
    steps:
      - show: ${input.when}

    """.write(to: directory.appendingPathComponent("when.yml"), atomically: true, encoding: .utf8)
    return directory
  }

  @Test func inputFromTheCommandLineTakesWords() async throws {
    let result = await Machine.run(
      ["run", "when.yml", "--input", "when=tomorrow"], in: try workflow(), clock: Self.clock)
    #expect(result.error == "")
    #expect(result.output == (try Self.day(1)))
  }

  @Test func inputThatIsNoDateIsAUsageError() async throws {
    let result = await Machine.run(
      ["run", "when.yml", "--input", "when=someday"], in: try workflow(), clock: Self.clock)
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "run/input-not-a-date.txt")
  }

  /// The prompt re-asks with the reason, then takes the words.
  @Test func askedInputTakesWords() async throws {
    let result = await Machine.run(
      ["run", "when.yml"], in: try workflow(), terminal: true, lines: ["someday", "in 3 days"], clock: Self.clock)
    #expect(result.status == 0)
    #expect(result.output.hasSuffix(try Self.day(3)))
    #expect(result.error.contains("'someday' is not a date"))
  }

  @Test func defaultTakesWordsReadWhenTheWorkflowRuns() async throws {
    let result = await Machine.run(["run", "when.yml"], in: try workflow(default: "yesterday"), clock: Self.clock)
    #expect(result.error == "")
    #expect(result.output == (try Self.day(-1)))
  }

  /// A default that is no date is found by the checker, at its place, before anything runs.
  @Test func defaultThatIsNoDateIsFoundBeforeTheRun() async throws {
    let directory = try workflow(default: "someday")
    let validate = await Machine.run(["validate", "when.yml"], in: directory, clock: Self.clock)
    #expect(validate.status != 0)
    assertGolden(transcript(validate), named: "validate/input-default-not-a-date.txt")
    let run = await Machine.run(["run", "when.yml"], in: directory, clock: Self.clock)
    #expect(run.status == validate.status)
    #expect(run.output == "")
  }
}
