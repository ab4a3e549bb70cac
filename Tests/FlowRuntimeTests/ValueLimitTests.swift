import FlowDiagnostics
import FlowIntents
import Testing

@testable import FlowRuntime

/// A run's values are bounded (issue 16, item 9): a step that makes a value past a limit fails by name, at
/// its place, before anything larger is built; a loop that would pass its limit fails before its first pass.
struct ValueLimitTests {
  /// Small limits, so that the tests build kilobytes, not the defaults' megabytes.
  static func options(text: Int = 1 << 20, items: Int = 1_000, depth: Int = 256, passes: Int = 1_000)
    -> Interpreter.Options
  {
    var options = Interpreter.Options()
    options.limits = ValueLimits(textBytes: text, items: items, depth: depth, passes: passes)
    return options
  }

  private func diagnostic(_ result: Result<Interpreter.Result, RunError>) -> Diagnostic? {
    result.error?.diagnostics.all.first
  }

  /// `repeat: 1000000000` once grew 250 MB a second until Ctrl-C; now it fails before its first pass.
  @Test func aBillionPassesFailBeforeTheFirst() async {
    let log = EventLog()
    let result = await run("  - repeat: 1000000000\n    do:\n      - text: x\n", log: log)
    #expect(result.error?.kind == .stepFailed)
    #expect(diagnostic(result)?.code == .tooManyPasses)
    #expect(
      diagnostic(result)?.message
        == "step 1 'repeat' would make 1,000,000,000 passes, more than the 1,000,000 one loop may make")
    #expect(diagnostic(result)?.span?.start.line == 5)
    #expect(log.records.isEmpty)
  }

  @Test func forEachPassesAreCounted() async {
    let result = await run(
      "  - repeat: 20\n    do:\n      - text: x\n  - for-each: ${previous}\n    do:\n      - text: y\n",
      options: Self.options(passes: 10))
    #expect(diagnostic(result)?.code == .tooManyPasses)
  }

  /// Doubling a text forty times reached 8.4 GB.
  @Test func doublingTextStopsAtTheLimit() async {
    let result = await run(
      """
        - text: x
          as: t
        - repeat: 40
          do:
            - set: t
              value: "${t}${t}"
      """, options: Self.options(text: 4096))
    #expect(result.error?.kind == .stepFailed)
    #expect(diagnostic(result)?.code == .valueTooLarge)
    #expect(diagnostic(result)?.message.contains("more than 4 KiB") == true)
  }

  /// A template is checked as it is filled in, before the step runs.
  @Test func aTemplateIsMeasuredAsItIsFilledIn() async {
    let result = await run(
      "  - text: \"\(String(repeating: "ab", count: 1_000))\"\n    as: t\n  - text: \"${t}${t}${t}\"\n",
      options: Self.options(text: 4096))
    #expect(diagnostic(result)?.message == "this text is more than 4 KiB, the most one value may hold")
    #expect(diagnostic(result)?.span?.start.line == 7)
  }

  @Test func anActionsOutputIsMeasured() async {
    let result = await run("  - list: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]\n", options: Self.options(items: 10))
    #expect(
      diagnostic(result)?.message == "step 1 'list' made a value of more than 10 items, the most one value may hold")
    #expect(diagnostic(result)?.span?.start.line == 5)
  }

  /// Each pass's output is small; together they are not.
  @Test func aLoopsCollectedOutputsAreMeasured() async {
    let result = await run(
      "  - repeat: 500\n    do:\n      - text: \"\(String(repeating: "x", count: 100))\"\n",
      options: Self.options(text: 10_000))
    #expect(diagnostic(result)?.code == .valueTooLarge)
    #expect(diagnostic(result)?.message.hasPrefix("step 1 'repeat' made a value of more than") == true)
  }

  @Test func appendedListsAreMeasuredAsTheyGrow() async {
    let result = await run(
      "  - repeat: 900\n    do:\n      - append: seen\n        value: ${index}\n", options: Self.options(items: 500))
    #expect(diagnostic(result)?.code == .valueTooLarge)
    #expect(
      diagnostic(result)?.message
        == "step 1.1 'append' made a value of more than 500 items, the most one value may hold")
  }

  /// Values nested deeper than the limit are refused; measuring them does not recurse.
  @Test func deepNestingIsMeasuredWithoutRecursion() {
    var value = FlowValue.text("x")
    for _ in 0..<100_000 { value = .list([value]) }
    let limits = ValueLimits()
    #expect(limits.problem(limits.measure(value)) != nil)
    // Freed without recursion too deep for the stack: taken apart level by level.
    while case .list(let items) = value, let inner = items.first { value = inner }
  }

  @Test func withinTheLimitsNothingChanges() async {
    let result = await run(
      "  - repeat: 1000\n    do:\n      - text: ${index}\n  - count: ${previous}\n", options: Self.options())
    #expect(result.output == .number(1000))
  }

  /// A run cancelled in a loop stops at the next pass, whatever the loop's size.
  @Test func cancellationStopsALoopAtTheNextPass() async {
    let task = Task { await run("  - repeat: 1000000\n    do:\n      - text: ${index}\n") }
    task.cancel()
    #expect(await task.value.error?.kind == .cancelled)
  }
}
