import FlowBasics
import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowTestSupport
import FlowYAML
import Foundation
import Testing

@testable import FlowRuntime

/// Collects run events, for assertions about what happened.
final class EventLog: RunObserver, @unchecked Sendable {
  private let lock = NSLock()
  private var events: [RunEvent] = []

  func record(_ event: RunEvent) { lock.withLock { events.append(event) } }

  var shown: [String] {
    lock.withLock { events.compactMap { if case .dialog(let text, _) = $0 { text } else { nil } } }
  }

  var records: [StepRecord] {
    lock.withLock { events.compactMap { if case .finished(let record) = $0 { record } else { nil } } }
  }

  /// How often the run handed over to `on-failure:`.
  var failures: Int {
    lock.withLock { events.count { if case .runFailed = $0 { true } else { false } } }
  }
}

/// Opens nothing: a test that reaches it has opened a URL it should not have.
struct RefusingLauncher: URLLauncher {
  func open(_ url: URL) async throws {
    Issue.record("opened \(url)")
  }
}

/// Workflows kept in memory by name, for `run-workflow`.
struct MemoryFiles: WorkflowFiles {
  var files: [String: String] = [:]

  func locate(_ reference: String, inFolder folder: String) -> String? {
    files[reference] == nil ? nil : reference
  }

  func canonicalPath(_ path: String) -> String { path }

  func read(_ path: String) -> Result<SourceFile, Diagnostic> {
    guard let text = files[path] else { return .failure(Diagnostic(.error, .stepFailed, "no such file", file: path)) }
    return .success(SourceFile(path: path, text: text))
  }
}

let registry = IntentRegistry(catalogs: [BasicsCatalog.self])

/// Checks and runs `steps` (a YAML list under `steps:`), returning the result or the error.
/// A clock whose sleeps last until they are cancelled: a step that waits on it never finishes by itself.
struct StalledClock: FlowClock {
  var now: Date { Date(timeIntervalSince1970: 0) }
  func sleep(for duration: Duration) async throws {
    try await Task.sleep(for: .seconds(86_400))
  }
}

func run(
  _ steps: String, inputs: String = "", answers: [ScriptedPrompter.Answer] = [], clock: any FlowClock = ManualClock(),
  loader: MemoryFiles = MemoryFiles(), options: Interpreter.Options = Interpreter.Options(),
  log: EventLog = EventLog()
) async -> Result<Interpreter.Result, RunError> {
  let text =
    "flow: 1\nname: Test\nenv: [FLOW_TEST]\n" + (inputs.isEmpty ? "" : "input:\n\(inputs)") + "steps:\n" + steps
  let check = WorkflowCheck(registry: registry, files: loader)
  let (workflow, diagnostics) = check.check(SourceFile(path: "test.yml", text: text))
  guard let workflow, !diagnostics.hasErrors else {
    return .failure(RunError(.invalid, diagnostics))
  }
  let context = IntentContext(prompter: ScriptedPrompter(answers), clock: clock, random: SeededRandomSource(seed: 1))
    .with(RefusingLauncher() as any URLLauncher, as: (any URLLauncher).self)
  let interpreter = Interpreter(registry: registry, context: context, loader: check, observer: log, options: options)
  do {
    return .success(try await interpreter.run(workflow, inputs: FlowDictionary()))
  } catch {
    return .failure(error)
  }
}

extension Result where Success == Interpreter.Result, Failure == RunError {
  var output: FlowValue? { if case .success(let result) = self { result.output } else { nil } }
  var error: RunError? { if case .failure(let error) = self { error } else { nil } }
  var message: String? { error?.diagnostics.all.first?.message }
}

struct InterpreterTests {
  @Test func previousChainsStepsAndNamesKeepOutputs() async {
    let result = await run(
      """
        - text: hello
          as: greeting
        - text: ${previous} world
        - text: "${greeting}!"
      """)
    #expect(result.output == .text("hello!"))
  }

  @Test func wholeReferenceKeepsTheType() async {
    let result = await run("  - list: [1, 2]\n    as: numbers\n  - stop: ${numbers}\n")
    #expect(result.output == .list([.number(1), .number(2)]))
  }

  @Test func whenSkipsAndLeavesPreviousAlone() async {
    let log = EventLog()
    let result = await run("  - text: kept\n  - text: skipped\n    when: false\n", log: log)
    #expect(result.output == .text("kept"))
    #expect(log.records.map(\.status) == [.ran, .skipped])
  }

  @Test func forEachOutputsEachPassLastOutput() async {
    let result = await run(
      """
        - for-each: [a, b]
          as: letter
          do:
            - text: "${index}:${letter}"
            - text: "${previous}!"
      """)
    #expect(result.output == .list([.text("1:a!"), .text("2:b!")]))
  }

  @Test func oneValueForEachIsOnePass() async {
    #expect(await run("  - for-each: solo\n    do:\n      - text: ${item}\n").output == .list([.text("solo")]))
  }

  @Test func repeatCountsFromOne() async {
    #expect(await run("  - repeat: 3\n    do:\n      - text: ${index}\n").output == .list(["1", "2", "3"]))
  }

  @Test func stopInsideABlockEndsTheRun() async {
    let log = EventLog()
    let result = await run(
      """
        - repeat: 5
          do:
            - if: ${index} == 2
              then:
                - stop: stopped at ${index}
        - show: never
      """, log: log)
    guard case .success(let value) = result else {
      Issue.record("expected success")
      return
    }
    #expect(value.stopped)
    #expect(value.output == .text("stopped at 2"))
    #expect(log.shown.isEmpty)
  }

  @Test func setAndAppend() async {
    let result = await run(
      """
        - set: total
          value: 1
        - append: seen
          value: a
        - append: seen
          value: b
        - text: "${total} ${seen}"
      """)
    #expect(result.output == .text("1 a, b"))
  }

  /// `append`, like `set`, passes its value on, so a loop of appends keeps its items, not every version
  /// of the growing list; the variable holds the list.
  @Test func appendPassesItsValueOn() async {
    let result = await run(
      """
        - repeat: 3
          do:
            - append: seen
              value: ${index}
        - text: "${previous} then ${seen}"
      """)
    #expect(result.output == .text("1, 2, 3 then 1, 2, 3"))
    let last = await run("  - append: seen\n    value: a\n  - append: seen\n    value: b\n")
    #expect(last.output == .text("b"))
  }

  @Test func retryWaitsOnTheClockAndGivesUp() async {
    let clock = ManualClock()
    let result = await run("  - get-item: []\n    retry: {attempts: 3, delay: 2s}\n", clock: clock as any FlowClock)
    // An empty list has no first item, every time.
    #expect(result.error?.kind == .stepFailed)
    #expect(clock.sleeps == [.seconds(2), .seconds(2)])
  }

  @Test func onErrorContinueGoesOnWithNothing() async {
    let log = EventLog()
    let result = await run("  - get-item: []\n    on-error: continue\n  - text: after ${previous}\n", log: log)
    #expect(result.output == .text("after "))
    #expect(log.records.first?.status == .failed)
  }

  @Test func onErrorContinueCarriesTheFailureAsAWarningAtItsPlace() async throws {
    let log = EventLog()
    _ = await run("  - text: first\n  - calculate: 1 / 0\n    on-error: continue\n", log: log)
    let warning = try #require(log.records.first { $0.status == .failed }?.warning)
    #expect(warning.severity == .warning)
    #expect(warning.message.hasPrefix("step 2 'calculate': "))
    #expect(warning.span?.start.line == 6)
    #expect(
      warning.notes.map(\.message) == [
        "the step has 'on-error: continue', so the run went on and its output is nothing"
      ])
  }

  /// Each pass of a loop has ids of its own (`2#3.1`); messages keep naming the step where it is written.
  @Test func loopPassesGetDistinctIds() async throws {
    let log = EventLog()
    var options = Interpreter.Options()
    options.passIDs = true
    let result = await run(
      """
        - text: start
        - for-each: [a, b]
          do:
            - repeat: 2
              do:
                - text: ${item}
        - calculate: 1 / 0
      """, options: options, log: log)
    #expect(
      log.records.map(\.step) == [
        "1", "2#1.1#1.1", "2#1.1#2.1", "2#1.1", "2#2.1#1.1", "2#2.1#2.1", "2#2.1", "2",
      ])
    #expect(result.message?.hasPrefix("step 3 'calculate': ") == true)
    #expect(log.records.map(\.position) == ["1", "2.1.1", "2.1.1", "2.1", "2.1.1", "2.1.1", "2.1", "2"])
    // Without pass ids (a run that does not list every step), ids are positions.
    let plain = EventLog()
    _ = await run("  - repeat: 2\n    do:\n      - text: x\n", log: plain)
    #expect(plain.records.map(\.step) == ["1.1", "1.1", "1"])
    let failing = await run("  - for-each: [1, 0]\n    do:\n      - calculate: 1 / ${item}\n")
    #expect(failing.message?.hasPrefix("step 1.1 'calculate': ") == true)
  }

  @Test func failingStepNamesStepActionParameterAndValue() async throws {
    let result = await run("  - text: x\n  - get-item:\n      list: [a]\n      item: index\n      index: 7\n")
    let diagnostic = try #require(result.error?.diagnostics.all.first)
    #expect(diagnostic.message.hasPrefix("step 2 'get-item': "))
    #expect(diagnostic.span?.start.line == 6)
    #expect(diagnostic.message.contains("7"))
  }

  @Test func timeoutFailsASlowStep() async {
    let result = await run("  - wait: 10m\n    timeout: 10ms\n", clock: StalledClock())
    #expect(result.error?.kind == .stepFailed)
    #expect(result.message == "step 1 'wait' took longer than its timeout of 0.01 seconds")
  }

  @Test func confirmationDeclinedCancels() async {
    let log = EventLog()
    let result = await run("  - show: a\n    confirm: Sure?\n  - show: b\n", answers: [.confirmation(false)], log: log)
    #expect(result.error?.kind == .cancelled)
    #expect(log.shown.isEmpty)
  }

  @Test func menuUsesTheChoiceOrTheDefault() async {
    let steps = """
        - menu: Pick
          options:
            One: [{text: one}]
            Two: [{text: two}]
          default: Two
      """
    #expect(await run(steps, answers: [.choice(0)]).output == .text("one"))
    #expect(await run(steps).output == .text("two"))
  }

  @Test func menuWithoutDefaultNeedsAnAnswer() async {
    let result = await run("  - menu: Pick\n    options:\n      One: []\n")
    #expect(result.error?.kind == .needsInput)
  }

  @Test func environmentOnlyForListedNames() async {
    var options = Interpreter.Options()
    options.environment = ["FLOW_TEST": "yes", "SECRET": "no"]
    #expect(await run("  - text: ${env.FLOW_TEST}\n", options: options).output == .text("yes"))
    #expect(await run("  - text: ${env.SECRET}\n", options: options).error?.kind == .invalid)
  }

  @Test func runWorkflowPassesInputAndReturnsOutput() async {
    var loader = MemoryFiles()
    loader.files["child.yml"] = "flow: 1\ninput:\n  who: text\nsteps:\n  - text: hi ${input.who}\n"
    let result = await run("  - run-workflow: child.yml\n    input: Ada\n", loader: loader)
    #expect(result.output == .text("hi Ada"))
  }

  @Test func runWorkflowRecursionIsBounded() async {
    var loader = MemoryFiles()
    // Under `when`, the recursion might end: bounded at run time rather than refused by the check.
    loader.files["self.yml"] = "flow: 1\nsteps:\n  - run-workflow: self.yml\n    when: true\n"
    let result = await run("  - run-workflow: self.yml\n", loader: loader)
    #expect(result.error?.kind == .stepFailed)
    #expect(result.message?.hasSuffix("workflows nest deeper than 8 levels") == true)
  }

  @Test func dryRunShowsChangingStepsAndPassesAPlaceholder() async {
    var options = Interpreter.Options()
    options.dryRun = true
    let log = EventLog()
    let result = await run("  - open-url: https://swift.org\n  - text: after\n", options: options, log: log)
    #expect(result.output == .text("after"))
    #expect(log.records.first?.status == .dryRun)
    #expect(log.records.first?.summary == "Open https://swift.org")
  }

  /// A dry run shows what would happen without sitting through it: `wait` and `retry` delays pass at once.
  @Test func dryRunDoesNotWait() async {
    var options = Interpreter.Options()
    options.dryRun = true
    let clock = ManualClock()
    let steps = "  - wait: 1h\n  - get-item: []\n    retry: {attempts: 3, delay: 2s}\n"
    let dry = await run(steps, clock: clock as any FlowClock, options: options)
    #expect(dry.error?.kind == .stepFailed)
    #expect(clock.sleeps == [])
    _ = await run(steps, clock: clock as any FlowClock)
    #expect(clock.sleeps == [.seconds(3600), .seconds(2), .seconds(2)])
  }

  @Test func cancellationStopsBetweenSteps() async {
    let task = Task { await run("  - repeat: 1000000\n    do:\n      - text: x\n") }
    task.cancel()
    #expect(await task.value.error?.kind == .cancelled)
  }
}
