import FlowDiagnostics
import Testing

@testable import FlowModel

struct WorkflowDecoderTests {
  /// `confirm` is a step key and an action: alone it is the action (its documented form), beside
  /// another action it asks before that one.
  @Test func confirmIsTheActionWhenTheStepHasNoOther() throws {
    let (steps, diagnostics) = decodeSteps(
      """
        - confirm: "Tidy up now?"
          as: answer
        - show: tidied
          confirm: Sure?
        - confirm
      """)
    #expect(diagnostics.isEmpty)
    #expect(steps.map(\.label) == ["confirm", "show", "confirm"])
    guard case .action(let call) = steps[0].kind, case .primary(.text(let message)) = call.arguments else {
      return fail("expected the confirm action with its message")
    }
    #expect(message.literal == "Tidy up now?")
    #expect(steps[0].confirm == nil)
    #expect(steps[0].name?.value == "answer")
    #expect(steps[1].confirm?.message?.literal == "Sure?")
  }

  @Test func bareStopEndsTheRunAndOtherBareBlocksSayWhatTheyNeed() throws {
    let (steps, diagnostics) = decodeSteps("  - show: a\n  - stop\n  - repeat\n")
    #expect(steps.map(\.label) == ["show", "stop"])
    guard case .stop(nil) = steps[1].kind else { return fail("expected a bare stop") }
    let problem = try #require(diagnostics.all.first)
    #expect(diagnostics.all.count == 1)
    #expect(problem.message == "'repeat' needs a value")
    #expect(problem.helps == ["write it as 'repeat: 3'"])
    #expect(problem.span?.start == at(5, 5))
  }

  /// `on-failure:` holds steps as `steps:` does, numbered apart; its shape mistakes read the same.
  @Test func onFailureIsAListOfSteps() throws {
    let (workflow, diagnostics) = decode("flow: 1\nsteps:\n  - show: a\non-failure:\n  - show: b\n  - stop\n")
    #expect(diagnostics.isEmpty)
    #expect(try #require(workflow).onFailure.map(\.label) == ["show", "stop"])
    let empty = decode("flow: 1\nsteps: [show: a]\non-failure:\n").diagnostics.all.first
    #expect(empty?.message == "'on-failure' is empty")
    let mapping = decode("flow: 1\nsteps: [show: a]\non-failure:\n  show: x\n").diagnostics.all.first
    #expect(mapping?.message == "expected a sequence for 'on-failure', found a mapping")
    #expect(mapping?.helps == ["write each step on its own line, starting with '- ', like '  - show: Hello'"])
    #expect(Step.describe(position: "on-failure.2.1") == "on-failure step 2.1")
    #expect(Step.describe(position: "3.1") == "step 3.1")
  }

  @Test func commonShapeMistakesSayHowToWriteIt() {
    let mapping = decode("flow: 1\nsteps:\n  show: x\n").diagnostics.all.first
    #expect(mapping?.message == "expected a sequence for 'steps', found a mapping")
    #expect(mapping?.helps == ["write each step on its own line, starting with '- ', like '  - show: Hello'"])
    let empty = decode("flow: 1\nsteps:\n").diagnostics.all.first
    #expect(empty?.message == "'steps' is empty")
    #expect(empty?.helps.first?.hasPrefix("list the steps under it") == true)
    let inputs = decode("flow: 1\ninput: [url]\nsteps: []\n").diagnostics.all.first
    #expect(inputs?.helps == ["declare each input by name with its type, one per line, like '  url: text'"])
    let noThen = decode("flow: 1\nsteps:\n  - if: true\n").diagnostics.all.first
    #expect(noThen?.message == "'if' needs 'then:' with its steps")
    #expect(
      noThen?.helps == ["add 'then:' beside 'if', with the steps to run when the condition holds as a list under it"])
  }

  @Test func metadataAndInputs() throws {
    let (workflow, diagnostics) = decode(
      """
      flow: 1
      name: Save and Tag
      description: Save a page.
      color: blue
      confirmations: auto
      env: [HOME]
      input:
        url: url
        tags:
          type: "[text]"
          prompt: Which tags?
          default: [inbox]
          ask-on-import: true
      steps: []
      """)
    #expect(diagnostics.isEmpty)
    let decoded = try #require(workflow)
    #expect(decoded.name == "Save and Tag")
    #expect(decoded.confirmations == .auto)
    #expect(decoded.environment.map(\.value) == ["HOME"])
    #expect(decoded.inputs.map(\.name.value) == ["url", "tags"])
    #expect(decoded.inputs[0].type?.value == "url")
    #expect(decoded.inputs[1].type?.value == "[text]")
    #expect(decoded.inputs[1].askOnImport)
    guard case .list(let items, _)? = decoded.inputs[1].defaultValue else {
      Issue.record("expected a list default")
      return
    }
    #expect(items.count == 1)
  }

  @Test func nameDefaultsToTheFileName() {
    #expect(decode("flow: 1\nsteps: []\n").workflow?.name == "test")
  }

  @Test func shortAndLongActionForms() throws {
    let (steps, diagnostics) = decodeSteps(
      """
        - raindrop.get-collections
        - show: Done
        - list: [a, b]
        - show:
            text: Long
        - comment:
      """)
    #expect(diagnostics.isEmpty)
    #expect(steps.map(\.label) == ["raindrop.get-collections", "show", "list", "show", "comment"])
    guard case .action(let bare) = steps[0].kind, case .none = bare.arguments else {
      return fail("bare action has no arguments")
    }
    guard case .action(let short) = steps[1].kind, case .primary(.text(let text)) = short.arguments else {
      return fail("a scalar fills the primary parameter")
    }
    #expect(text.literal == "Done")
    guard case .action(let long) = steps[3].kind, case .named(let entries, _) = long.arguments else {
      return fail("a mapping names parameters")
    }
    #expect(entries.map(\.key.value) == ["text"])
  }

  @Test func valuesKeepTheirTypesAndAsk() throws {
    let (steps, _) = decodeSteps(
      "  - x:\n      a: 3\n      b: 1.5\n      c: true\n      d: ask\n      e: 'ask'\n      f: ~\n")
    guard case .action(let call) = steps.first?.kind, case .named(let entries, _) = call.arguments else {
      return fail("expected named arguments")
    }
    let values = entries.map(\.value)
    guard case .integer(3, _) = values[0], case .double(1.5, _) = values[1], case .bool(true, _) = values[2],
      case .ask = values[3], case .text(let quoted) = values[4], case .null = values[5]
    else {
      return fail("unexpected values \(values)")
    }
    #expect(quoted.literal == "ask")
  }

  @Test func blocks() throws {
    let (steps, diagnostics) = decodeSteps(
      """
        - if: ${a} == 1
          then:
            - show: one
          else:
            - show: other
        - repeat: 3
          do:
            - show: ${index}
        - for-each: ${items}
          as: item_name
          do:
            - show: ${item_name}
        - menu: What next?
          options:
            Archive: [{show: archived}]
            Nothing: []
          default: Nothing
        - set: total
          value: 0
        - append: names
        - run-workflow: other.yml
          input: ${total}
        - stop: ${total}
        - stop:
      """)
    #expect(diagnostics.isEmpty)
    #expect(
      steps.map(\.label) == ["if", "repeat", "for-each", "menu", "set", "append", "run-workflow", "stop", "stop"])
    guard case .ifBlock(_, let then, let otherwise) = steps[0].kind else { return fail("if") }
    #expect(then.count == 1 && otherwise.count == 1)
    #expect(steps[2].name?.value == "item_name")
    guard case .menu(_, let options, let defaultOption) = steps[3].kind else { return fail("menu") }
    #expect(options.map(\.label.value) == ["Archive", "Nothing"])
    #expect(defaultOption?.value == "Nothing")
    guard case .stop(nil) = steps[8].kind else { return fail("bare stop") }
  }

  @Test func stepKeys() throws {
    let (steps, diagnostics) = decodeSteps(
      """
        - show: hi
          as: greeting
          when: ${a} > 1
          confirm: Really?
          on-error: continue
          retry: {attempts: 3, delay: 2s}
          timeout: 1m30s
        - show: again
          retry: 2
          confirm: true
      """)
    #expect(diagnostics.isEmpty)
    let first = try #require(steps.first)
    #expect(first.name?.value == "greeting")
    #expect(first.when != nil)
    #expect(first.confirm?.message?.literal == "Really?")
    #expect(first.onError == .continue)
    #expect(first.retry == Step.Retry(attempts: 3, delay: .seconds(2)))
    #expect(first.timeout?.value == .seconds(90))
    #expect(steps[1].retry?.attempts == 2)
    #expect(steps[1].confirm != nil && steps[1].confirm?.message == nil)
  }

  @Test(arguments: [
    ("  - then: []\n", DiagnosticCode.misplacedKey, "'then' belongs to an 'if' step"),
    ("  - as: x\n", .missingAction, "this step has no action"),
    ("  - show: a\n    url: b\n", .multipleActions, "a step runs one action, but this one also has 'url'"),
    ("  - menu: Pick\n", .emptyMenu, "'menu' has no options to choose from"),
    ("  - show: a\n    as: input\n", .invalidName, "'input' is a built-in variable and cannot be reused as a name"),
    ("  - Show: a\n", .invalidName, "'Show' is not an action name"),
    ("  - show: a\n    on-error: ignore\n", .unknownValue, "unknown on-error policy 'ignore'"),
    ("  - show: a\n    timeout: soon\n", .wrongKind, "expected a duration for 'timeout', found 'soon'"),
    (
      "  - show: a\n    retry: 9223372036854775807\n", .wrongKind,
      "expected a whole number from 1 to 100 for 'retry', found '9223372036854775807'"
    ),
    (
      "  - show: a\n    retry: {attempts: 101}\n", .wrongKind,
      "expected a whole number from 1 to 100 for 'attempts', found '101'"
    ),
    ("  - show: a\n    retry: 0\n", .wrongKind, "expected a whole number from 1 to 100 for 'retry', found '0'"),
    ("  - if: ${a}\n", .missingKey, "'if' needs 'then:' with its steps"),
    ("  - repeat: 2\n    do: hello\n", .wrongKind, "expected a list of steps for 'do', found text"),
    ("  - show: a\n    then: []\n", .misplacedKey, "'then' belongs to an 'if' step, not 'show'"),
    ("  - [a]\n", .wrongKind, "expected a step, found a sequence"),
  ])
  func stepProblems(steps: String, code: DiagnosticCode, message: String) throws {
    let (_, diagnostics) = decodeSteps(steps)
    let diagnostic = try #require(diagnostics.all.first)
    #expect(diagnostic.code == code)
    #expect(diagnostic.message == message)
  }

  @Test func duplicateNamesPointAtBoth() throws {
    let (_, diagnostics) = decodeSteps("  - text: a\n    as: x\n  - text: b\n    as: x\n")
    let diagnostic = try #require(diagnostics.all.first)
    #expect(diagnostic.code == .duplicateName)
    #expect(diagnostic.span?.start == at(6, 9))
    #expect(diagnostic.notes.first?.span?.start == at(4, 9))
  }

  @Test func everyProblemIsReportedInOnePass() {
    let (_, diagnostics) = decodeSteps("  - then: []\n  - menu: x\n  - show: ${a\n  - show: a\n    timeout: x\n")
    #expect(diagnostics.all.map(\.code) == [.misplacedKey, .emptyMenu, .malformedReference, .wrongKind])
  }

  @Test(arguments: [
    ("30s", Duration.seconds(30)), ("2m", .seconds(120)), ("1h30m", .seconds(5400)), ("500ms", .milliseconds(500)),
    ("1.5", .milliseconds(1500)), ("1d", .seconds(86400)),
  ])
  func durations(text: String, expected: Duration) {
    #expect(DurationParsing.parse(text) == expected)
  }

  @Test(arguments: ["", "s", "3x", "-1", "1m-", "ms"])
  func badDurations(text: String) {
    #expect(DurationParsing.parse(text) == nil)
  }

  /// Past the longest duration, however it is written, and never a trap (issue 28).
  @Test(arguments: [
    "1e300", "1e309", "inf", "99999999999999999d", "9223372036854775807", "366d1ms", "1000000000000000000000ms",
  ])
  func tooLongDurations(text: String) {
    #expect(DurationParsing.read(text) == .failure(.tooLong))
  }

  @Test func theLongestDurationIsTaken() {
    #expect(DurationParsing.read("366d") == .success(.seconds(366 * 86_400)))
    #expect(DurationParsing.format(.seconds(Int64.max)) == "366d")
    #expect(DurationParsing.duration(seconds: .infinity) == .seconds(366 * 86_400))
    #expect(DurationParsing.duration(seconds: .nan) == .zero)
  }
}

extension WorkflowDecoderTests {
  @Test func timeoutBelongsToActions() throws {
    let (_, diagnostics) = decodeSteps("  - repeat: 2\n    timeout: 1s\n    do: []\n")
    #expect(diagnostics.all.map(\.message) == ["'timeout' limits one action, not a 'repeat' block"])
  }
}
