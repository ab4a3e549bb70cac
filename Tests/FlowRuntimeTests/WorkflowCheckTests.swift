import FlowBasics
import FlowDiagnostics
import FlowIntents
import FlowModel
import Foundation
import Testing

@testable import FlowRuntime

/// Workflows in memory that count how often each is read.
final class CountingFiles: WorkflowFiles, @unchecked Sendable {
  let files: [String: String]
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  init(_ files: [String: String]) { self.files = files }

  var reads: [String: Int] { lock.withLock { counts } }

  func locate(_ reference: String, inFolder folder: String) -> String? {
    files[reference] == nil ? nil : reference
  }

  func canonicalPath(_ path: String) -> String { path }

  func read(_ path: String) -> Result<SourceFile, Diagnostic> {
    lock.withLock { counts[path, default: 0] += 1 }
    guard let text = files[path] else { return .failure(Diagnostic(.error, .workflowNotFound, "gone", file: path)) }
    return .success(SourceFile(path: path, text: text))
  }
}

/// Checks `root.yml` among `files`; the messages of the diagnostics, in file order.
func check(_ files: [String: String]) -> (messages: [String], check: WorkflowCheck, workflow: Workflow?) {
  let check = WorkflowCheck(registry: registry, files: CountingFiles(files))
  let (workflow, diagnostics) = check.check(path: "root.yml")
  return (diagnostics.sorted().map { "\($0.path ?? ""): \($0.severity): \($0.message)" }, check, workflow)
}

struct WorkflowCheckTests {
  static let child = "flow: 1\ninput:\n  n: number\nsteps:\n  - stop: ${input.n}\n"

  @Test func brokenAndMissingChildrenAreErrorsOfTheParentAndTheirOwn() {
    let (messages, _, _) = check([
      "root.yml": "flow: 1\nsteps:\n  - run-workflow: broken.yml\n  - run-workflow: missing.yml\n",
      "broken.yml": "flow: 1\nsteps:\n  - shwo: x\n",
    ])
    #expect(
      messages == [
        "broken.yml: error: unknown action 'shwo'",
        "root.yml: error: 'broken.yml' is invalid, so this step cannot run",
        "root.yml: error: no workflow 'missing.yml' to run",
      ])
  }

  @Test func inputsAreCheckedAgainstTheChildAndItsResultTypeFlowsOn() {
    let (messages, _, _) = check([
      "root.yml": """
      flow: 1
      steps:
        - run-workflow: count.yml
          input: notanumber
        - run-workflow: count.yml
        - open-url: ${previous}
      """,
      "count.yml": Self.child,
    ])
    #expect(
      messages == [
        "root.yml: error: expected a number for input 'n' of 'count.yml', got 'notanumber'",
        "root.yml: error: 'count.yml' needs its input 'n', which has no default",
        "root.yml: error: 'url' takes a URL, but '${previous}' is a number",
      ])
  }

  @Test func eachFileIsReadAndReportedOnceAndTheRunLoadsFromTheCache() async throws {
    let files = CountingFiles([
      "root.yml": "flow: 1\nsteps:\n  - run-workflow: a.yml\n  - run-workflow: b.yml\n  - run-workflow: a.yml\n",
      "a.yml": "flow: 1\nsteps:\n  - run-workflow: leaf.yml\n  - text: a\n",
      "b.yml": "flow: 1\nsteps:\n  - run-workflow: leaf.yml\n  - text: b\n",
      "leaf.yml": "flow: 1\nsteps:\n  - text: leaf\n    when: ${nothing}\n",
    ])
    let check = WorkflowCheck(registry: registry, files: files)
    let (workflow, diagnostics) = check.check(path: "root.yml")
    // leaf.yml's one error is reported once, though two workflows run it.
    #expect(diagnostics.all.filter { $0.path == "leaf.yml" }.count == 1)
    #expect(files.reads == ["root.yml": 1, "a.yml": 1, "b.yml": 1, "leaf.yml": 1])
    #expect(workflow != nil)

    let valid = CountingFiles(["root.yml": "flow: 1\nsteps:\n  - run-workflow: a.yml\n", "a.yml": Self.child])
    let runCheck = WorkflowCheck(registry: registry, files: valid)
    let root = try #require(runCheck.check(path: "root.yml").workflow)
    _ = try runCheck.load("a.yml", from: root)
    _ = try runCheck.load("a.yml", from: root)
    #expect(valid.reads == ["root.yml": 1, "a.yml": 1])
  }

  @Test func aCycleIsAnErrorOnlyWhenNothingCanEndIt() {
    let endless = check([
      "root.yml": "flow: 1\nsteps:\n  - show: going\n  - run-workflow: other.yml\n",
      "other.yml": "flow: 1\nsteps:\n  - run-workflow: root.yml\n",
    ]).messages
    #expect(
      endless == [
        "other.yml: error: 'root.yml' runs this workflow again every time it runs, without end",
        "root.yml: error: 'other.yml' is invalid, so this step cannot run",
      ])
    let itself = check(["root.yml": "flow: 1\nsteps:\n  - run-workflow: root.yml\n"]).messages
    #expect(itself == ["root.yml: error: this workflow runs itself every time it runs, without end"])
    // A condition, a branch or an earlier `stop` may end it: the run's depth limit does.
    for guarded in [
      "  - run-workflow: root.yml\n    when: ${input.again}\n",
      "  - if: ${input.again}\n    then:\n      - run-workflow: root.yml\n",
      "  - if: ${input.again}\n    then:\n      - stop\n  - run-workflow: root.yml\n",
    ] {
      let messages = check(["root.yml": "flow: 1\ninput:\n  again: boolean\nsteps:\n" + guarded]).messages
      #expect(messages.isEmpty, "\(guarded)")
    }
  }

  @Test func aComputedReferenceIsAWarning() {
    let (messages, _, workflow) = check([
      "root.yml": "flow: 1\nsteps:\n  - text: a.yml\n  - run-workflow: ${previous}\n"
    ])
    #expect(
      messages == ["root.yml: warning: the workflow to run is computed, so it is checked only when this step runs"])
    #expect(workflow != nil)
  }

  @Test func aComputedReferenceToAnInvalidWorkflowFailsTheStep() async {
    var files = MemoryFiles()
    files.files["bad.yml"] = "flow: 1\nsteps:\n  - shwo: x\n"
    let result = await run("  - text: bad.yml\n  - run-workflow: ${previous}\n", loader: files)
    #expect(result.error?.kind == .stepFailed)
    #expect(result.message == "step 2 'run-workflow': 'bad.yml' is invalid, so it did not run")
    #expect(result.error?.diagnostics.all.last?.message == "unknown action 'shwo'")
  }

  /// What a computed reference passes cannot be checked before the run; the step resolves it as
  /// `flow run` resolves inputs: typed by the child's declaration, or the step fails at `input:`.
  @Test func aComputedReferenceGivesItsInputsTheirDeclaredTypes() async {
    var files = MemoryFiles()
    files.files["count.yml"] = Self.child
    let wrong = await run("  - text: count.yml\n  - run-workflow: ${previous}\n    input: lots\n", loader: files)
    #expect(wrong.error?.kind == .stepFailed)
    #expect(wrong.message == "step 2 'run-workflow': input 'n': expected a number, got 'lots'")
    #expect(wrong.error?.diagnostics.all.first?.span?.start.line == 7)
    #expect(wrong.error?.diagnostics.all.first?.helps == ["write a number, like 12 or 2.5"])
    let typed = await run(
      "  - text: count.yml\n    as: which\n  - text: \"5\"\n  - run-workflow: ${which}\n    input: ${previous}\n",
      loader: files)
    #expect(typed.output == .number(5))
  }

  /// `input: ask` asks for the nested workflow's input when the step runs, as `ask` does for a parameter.
  @Test func anInputGivenAskIsAskedFor() async {
    var files = MemoryFiles()
    files.files["count.yml"] = Self.child
    let asked = await run("  - run-workflow: count.yml\n    input: ask\n", answers: [.value(7)], loader: files)
    #expect(asked.output == .number(7))
    let unanswered = await run("  - run-workflow: count.yml\n    input: ask\n", loader: files)
    #expect(unanswered.error?.kind == .needsInput)
  }

  /// A nested workflow's steps are numbered in their own file, and in a report's ids under the step
  /// that runs them, as a block's steps are: `1#1.1.1` is step 1 of the workflow step 1.1 runs in the
  /// first pass of step 1.
  @Test func nestedStepsHaveIdsUnderTheStepThatRunsThem() async {
    var files = MemoryFiles()
    files.files["count.yml"] = Self.child
    var options = Interpreter.Options()
    options.passIDs = true
    let log = EventLog()
    _ = await run(
      "  - repeat: 1\n    do:\n      - run-workflow: count.yml\n        input: ${index}\n  - run-workflow: count.yml\n    input: 2\n",
      loader: files, options: options, log: log)
    #expect(log.records.map(\.step) == ["1#1.1.1", "1#1.1", "1", "2.1", "2"])
    #expect(log.records.map(\.position) == ["1", "1.1", "1", "1", "2"])
  }
}

/// What an unattended run would have to ask, listed before its first step.
struct UnattendedCheckTests {
  func needs(
    _ text: String, inputs: Set<String> = [], confirmations: Bool = false, values: [String: FlowValue] = [:],
    files: [String: String] = [:]
  ) -> [String] {
    let check = WorkflowCheck(registry: registry, files: CountingFiles(files.merging(["root.yml": text]) { $1 }))
    guard let workflow = check.check(path: "root.yml").workflow else { return ["invalid"] }
    return UnattendedCheck.check(
      workflow, answers: UnattendedCheck.Answers(inputs: inputs, confirmations: confirmations, values: values),
      registry: registry,
      loader: check
    ).all.map { "\($0.span.map { "\($0.file.path):\($0.start.line)" } ?? ""): \($0.message)" }
  }

  static let everything = """
    flow: 1
    input:
      name: text
      tone:
        type: text
        default: calm
    steps:
      - show: hello
        confirm: Say hello?
      - ask: How many?
      - choose-from-list: [a, b]
      - confirm: Sure?
      - text: ask
      - menu: Which?
        options:
          A: []
      - if: ${previous} is empty
        then:
          - confirm: Really?
      - wait:
          duration: ask
    """

  @Test func listsEveryQuestionWithSureAndMaybe() {
    #expect(
      needs(Self.everything) == [
        "root.yml:3: input 'name' needs a value",
        "root.yml:9: step 1 'show' needs a confirmation: Say hello?",
        "root.yml:10: step 2 'ask' needs an answer: How many?",
        "root.yml:11: step 3 'choose-from-list' needs a choice",
        "root.yml:12: step 4 'confirm' needs a confirmation: Sure?",
        "root.yml:13: step 5 'text' needs a value for 'text' (it is 'ask')",
        "root.yml:14: step 6 'menu' needs a choice: Which?",
        "root.yml:19: step 7.1 'confirm' may need a confirmation: Really?",
        "root.yml:21: step 8 'wait' needs a value for 'duration' (it is 'ask')",
      ])
  }

  /// A step whose values make it delete asks, so an unattended run needs its confirmation; a deciding
  /// value computed at run time could be the deleting one (issue 16). GET and POST ask nothing.
  @Test func aStepItsValuesMakeDestructiveNeedsAConfirmation() {
    let text = """
      flow: 1
      steps:
        - text: delete
          as: verb
        - get-url:
            url: https://example.com/items/1
            method: delete
        - get-url:
            url: https://example.com/items
            method: ${verb}
        - get-url:
            url: https://example.com/items
            method: post
        - get-url: https://example.com/items
      """
    #expect(
      needs(text) == [
        "root.yml:5: step 2 'get-url' needs a confirmation (it deletes with method: delete, so it asks before it runs)",
        "root.yml:8: step 3 'get-url' needs a confirmation ('method' is known only at run time and may make it delete, so it asks before it runs)",
      ])
    #expect(needs(text, confirmations: true) == [])
  }

  /// An input given before step 1 is known: a method taken from it asks only if the value deletes.
  @Test func aDecidingValueFromAGivenInputIsKnown() {
    let text = """
      flow: 1
      input:
        verb: text
      steps:
        - get-url:
            url: https://example.com/items
            method: ${input.verb}
      """
    #expect(needs(text, inputs: ["verb"], values: ["verb": "post"]) == [])
    #expect(
      needs(text, inputs: ["verb"], values: ["verb": "delete"]) == [
        "root.yml:5: step 1 'get-url' needs a confirmation (it deletes with method: delete, so it asks before it runs)"
      ])
    #expect(needs(text, inputs: ["verb"]).count == 1)
  }

  @Test func yesAndGivenInputsAnswerWhatTheyCan() {
    #expect(
      needs(Self.everything, inputs: ["name"], confirmations: true) == [
        "root.yml:10: step 2 'ask' needs an answer: How many?",
        "root.yml:11: step 3 'choose-from-list' needs a choice",
        "root.yml:13: step 5 'text' needs a value for 'text' (it is 'ask')",
        "root.yml:14: step 6 'menu' needs a choice: Which?",
        "root.yml:21: step 8 'wait' needs a value for 'duration' (it is 'ask')",
      ])
  }

  @Test func inputsARunWorkflowLeavesToAskAreListed() {
    let asked = needs(
      "flow: 1\nsteps:\n  - run-workflow: count.yml\n    input: ask\n  - run-workflow: pair.yml\n    input:\n      a: ask\n      b: 2\n",
      files: [
        "count.yml": WorkflowCheckTests.child,
        "pair.yml": "flow: 1\ninput:\n  a: number\n  b: number\nsteps:\n  - show: x\n",
      ])
    #expect(
      asked == [
        "root.yml:4: step 1 'run-workflow' needs a value for the input of 'count.yml' (it is 'ask')",
        "root.yml:7: step 2 'run-workflow' needs a value for input 'a' of 'pair.yml' (it is 'ask')",
      ])
  }

  @Test func nestedWorkflowsAreWalkedOnceAndAMenuWithADefaultNeedsNothing() {
    let child = "flow: 1\nsteps:\n  - confirm: Go on?\n  - menu: Pick\n    options:\n      A: []\n    default: A\n"
    let asked = needs(
      "flow: 1\nsteps:\n  - run-workflow: child.yml\n  - run-workflow: child.yml\n  - wait\n",
      files: ["child.yml": child])
    #expect(
      asked == [
        "child.yml:3: step 1 'confirm' needs a confirmation: Go on?",
        "root.yml:5: step 3 'wait' needs a value for 'duration', which the step does not give",
      ])
  }
}

/// A dry run's stand-ins show as what they stand for, wherever they would become text.
struct DryRunStandInTests {
  @Test func standInsShowAsTheStepsOutputInText() async {
    var options = Interpreter.Options()
    options.dryRun = true
    let log = EventLog()
    let result = await run(
      """
        - get-url:
            url: https://example.com/api
            method: POST
          as: posted
        - show: "posted: ${posted}, ${posted.id}"
        - set: copy
          value: ${posted}
        - text: "again ${copy}"
      """, options: options, log: log)
    #expect(log.shown == ["posted: ⟨get-url output⟩, ⟨get-url output⟩"])
    #expect(result.output == .text("again ⟨get-url output⟩"))
    #expect(log.records.first?.status == .dryRun)
  }

  /// A read-only step that computes from a stand-in may fail only because its value is made up: it is
  /// shown, as a change is, and passes on a stand-in of its own, rather than failing the dry run.
  @Test func aStepComputedFromAStandInIsShownNotFailed() async {
    var options = Interpreter.Options()
    options.dryRun = true
    let log = EventLog()
    let result = await run(
      """
        - get-url:
            url: https://example.com/api
            method: POST
          as: posted
        - calculate: ${posted.id} + 1
        - show: ${previous}
        - calculate: 1 / 0
      """, options: options, log: log)
    #expect(log.records.map(\.status) == [.dryRun, .dryRun, .ran])
    #expect(log.records[1].summary?.contains("⟨get-url output⟩ + 1") == true)
    #expect(log.shown == ["⟨calculate output⟩"])
    // A failure that owes nothing to a stand-in is still the real run's failure.
    #expect(result.error?.kind == .stepFailed)
    #expect(result.message?.contains("division by zero") == true)
  }
}
