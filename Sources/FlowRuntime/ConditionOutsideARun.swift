import FlowIntents
import FlowModel
import FoundationEssentials

extension Condition {
  /// Whether the condition holds where `names` are the variables and `previous` the previous step's
  /// output, decided as a run decides an `if:` or a `when:` (``Evaluator``); for what evaluates a
  /// condition outside a run (the fuzzing harness). Throws what the run would fail with.
  public func holds(
    names: [String: FlowValue], previous: FlowValue, inputs: FlowDictionary, now: Date, textLimit: Int = Int.max
  ) throws -> Bool {
    let builtIns = Scope.BuiltIns(
      workflowName: "condition", runID: "condition", environment: [:], clock: FixedClock(now: now))
    var scope = Scope(inputs: inputs, builtIns: builtIns)
    scope.names = names
    scope.previous = previous
    scope.textLimit = textLimit
    return try Evaluator.evaluate(self, in: scope)
  }
}

/// A clock stopped at one time, whose sleeps end at once.
private struct FixedClock: FlowClock {
  let now: Date
  func sleep(for duration: Duration) async throws {}
}
