import FlowDiagnostics
import FlowIntents
import FlowModel
import Foundation
import Testing

@testable import FlowRuntime

/// `on-failure:`: run when the run fails, never when it is cancelled or succeeds, with `${run.error}`;
/// its own failure is a warning beside the run's error, and never runs it again.
struct OnFailureTests {
  @Test func runsWhenAStepFailsAndTheRunStillFails() async throws {
    let log = EventLog()
    let result = await run(
      """
        - show: before
        - calculate: 1 / 0
        - show: never
      on-failure:
        - show: "failed at ${run.error.step}: ${run.error.message}"
      """, log: log)
    let error = try #require(result.error)
    #expect(error.kind == .stepFailed)
    #expect(error.diagnostics.all.count == 1)
    #expect(error.diagnostics.all.first?.message.hasPrefix("step 2 'calculate': ") == true)
    #expect(
      log.shown == [
        "before", "failed at step 2 'calculate': cannot calculate '1 / 0': division by zero",
      ])
    #expect(log.records.last?.position == "on-failure.1")
    #expect(log.records.last?.step == "on-failure.1")
  }

  @Test func doesNotRunOnSuccess() async {
    let log = EventLog()
    let result = await run("  - show: fine\non-failure:\n  - show: broken\n", log: log)
    #expect(result.error == nil)
    #expect(log.shown == ["fine"])
  }

  @Test func doesNotRunWhenCancelled() async {
    let log = EventLog()
    let result = await run(
      "  - show: a\n    confirm: Sure?\non-failure:\n  - show: broken\n", answers: [.confirmation(false)], log: log)
    #expect(result.error?.kind == .cancelled)
    #expect(log.shown.isEmpty)
  }

  @Test func doesNotRunWhenAFailureIsContinuedPast() async {
    let log = EventLog()
    let result = await run(
      "  - calculate: 1 / 0\n    on-error: continue\n  - show: went on\non-failure:\n  - show: broken\n", log: log)
    #expect(result.error == nil)
    #expect(log.shown == ["went on"])
  }

  @Test func runsWhenNobodyCanAnswerAndKeepsThatOutcome() async {
    let log = EventLog()
    let result = await run(
      "  - menu: Pick\n    options:\n      One: []\non-failure:\n  - show: ${run.error.code}\n", log: log)
    #expect(result.error?.kind == .needsInput)
    #expect(log.shown == ["input-needed"])
  }

  /// A failure inside `on-failure:` ends it, is reported as a warning after the run's error, and does
  /// not run `on-failure:` again.
  @Test func itsOwnFailureIsAWarningAndNeverLoops() async throws {
    let log = EventLog()
    let result = await run(
      """
        - calculate: 1 / 0
      on-failure:
        - show: telling
        - get-item: []
        - show: never
      """, log: log)
    let error = try #require(result.error)
    #expect(error.kind == .stepFailed)
    #expect(log.shown == ["telling"])
    let diagnostics = error.diagnostics.all
    #expect(diagnostics.map(\.severity) == [.error, .warning])
    #expect(diagnostics[0].message.hasPrefix("step 1 'calculate': "))
    #expect(diagnostics[1].code == .onFailureFailed)
    #expect(diagnostics[1].message.hasPrefix("on-failure step 2 'get-item': "))
    #expect(diagnostics[1].span?.start.line == 8)
    #expect(
      diagnostics[1].notes.map(\.message) == [
        "'on-failure' ran because the run failed; the run ends with that first failure and its exit status"
      ])
    // Only one hand-over to on-failure.
    #expect(log.failures == 1)
  }

  /// A dry run that fails runs `on-failure:` as a dry run: what would change is shown, not done (the
  /// launcher records an issue if a URL is opened).
  @Test func aDryRunShowsWhatItWouldDo() async {
    let log = EventLog()
    var options = Interpreter.Options()
    options.dryRun = true
    let result = await run(
      "  - calculate: 1 / 0\non-failure:\n  - open-url: https://status.example.com\n", options: options, log: log)
    #expect(result.error?.kind == .stepFailed)
    #expect(log.records.map(\.status) == [.dryRun])
    #expect(log.records.map(\.position) == ["on-failure.1"])
  }

  @Test func stopEndsOnlyTheBlock() async {
    let log = EventLog()
    let result = await run(
      "  - calculate: 1 / 0\non-failure:\n  - show: one\n  - stop\n  - show: two\n", log: log)
    #expect(result.error?.kind == .stepFailed)
    #expect(log.shown == ["one"])
  }

  /// As text, `${run.error}` reads as the one-line diagnostic; its parts are properties.
  @Test func runErrorProperties() async throws {
    let log = EventLog()
    _ = await run(
      """
        - if: true
          then:
            - calculate: 2 / 0
      on-failure:
        - show: ${run.error}
        - show: "${run.error.position}|${run.error.action}|${run.error.place}|${run.error.line}|${run.error.column}"
        - show: ${run.error.file}
      """, log: log)
    #expect(
      log.shown == [
        "test.yml:7:9: error: step 1.1 'calculate': cannot calculate '2 / 0': division by zero",
        "1.1|calculate|test.yml:7:9|7|9",
        "test.yml",
      ])
  }

  /// A nested workflow's failing step is named under the `run-workflow` step that ran it, as history
  /// places it; the nested workflow's own `on-failure:` does not run (the run's failure is its caller's).
  @Test func nestedFailuresAreNamedUnderTheirStep() async throws {
    let log = EventLog()
    let loader = MemoryFiles(files: [
      "child.yml": "flow: 1\nsteps:\n  - show: child\n  - calculate: 1 / 0\non-failure:\n  - show: child on-failure\n"
    ])
    let result = await run(
      "  - show: parent\n  - run-workflow: child.yml\non-failure:\n  - show: ${run.error.step}\n", loader: loader,
      log: log)
    #expect(result.error?.kind == .stepFailed)
    #expect(log.shown == ["parent", "child", "step 2.2 'calculate'"])
  }

  /// Text that holds a URL has a URL's properties (a link in JSON is text), in the check and the run.
  @Test func textHoldingAURLHasItsProperties() async {
    let result = await run(
      """
        - dictionary: {url: "https://swift.org/blog/?page=2", title: Swift}
          as: story
        - text: https://example.com:8080/x
          as: link
        - stop: "${story.url.host} ${story.url.path} ${story.url.query} ${link.port} ${link.host.count}"
      """)
    #expect(result.output == .text("swift.org /blog page=2 8080 11"))
    let notAURL = await run("  - dictionary: {url: not a link}\n    as: story\n  - show: ${story.url.host}\n")
    #expect(
      notAURL.message == "'${story.url.host}' reads 'host' of a URL, but the text 'not a link' is not one")
    let typo = await run("  - text: https://swift.org\n    as: link\n  - show: ${link.hots}\n")
    #expect(typo.error?.kind == .invalid)
    #expect(typo.message == "unknown property 'hots' of Text")
  }

  /// An unattended run is refused before step 1 when `on-failure:` would ask what nobody can answer,
  /// as for any step that may run; a nested workflow's `on-failure:` never runs, so it asks nothing.
  @Test func theUnattendedCheckCountsItsQuestions() throws {
    let files = MemoryFiles(files: [
      "test.yml":
        "flow: 1\nsteps:\n  - run-workflow: child.yml\non-failure:\n  - show: sorry\n    confirm: Tell them?\n",
      "child.yml": "flow: 1\nsteps:\n  - show: hi\non-failure:\n  - ask: Why?\n",
    ])
    let check = WorkflowCheck(registry: registry, files: files)
    let workflow = try #require(check.check(path: "test.yml").workflow)
    let needed = UnattendedCheck.check(
      workflow, answers: .init(inputs: [], confirmations: false), registry: registry, loader: check)
    #expect(needed.all.map(\.message) == ["on-failure step 1 'show' may need a confirmation: Tell them?"])
  }

  @Test func outputsOfTheStepsAreNotItsToSee() async {
    let result = await run("  - text: x\n    as: made\non-failure:\n  - show: ${made}\n")
    #expect(result.error?.kind == .invalid)
    #expect(
      result.message == "'made' is set by 'steps:', which may not have got that far when 'on-failure' runs")
  }

  @Test func runErrorIsOnlyDefinedInOnFailure() async {
    let result = await run("  - show: ${run.error}\n")
    #expect(result.error?.kind == .invalid)
    #expect(result.message == "'${run.error}' is only defined in the steps of 'on-failure'")
  }

  /// Its steps are checked as any: types of `${run.error}`'s properties, its own names, the inputs.
  @Test func itsStepsAreChecked() async {
    let valid = await run(
      """
        - calculate: 1 / 0
      on-failure:
        - calculate: ${run.error.line} + 1
          as: next
        - show: "${next} ${run.id} ${workflow.name} ${input.who}"
      """, inputs: "  who:\n    type: text\n    default: Ada\n")
    #expect(valid.error?.kind == .stepFailed)
    let misspelt = await run("  - show: x\non-failure:\n  - show: ${run.error.mesage}\n")
    #expect(misspelt.message == "unknown property 'mesage' of Error")
  }
}
