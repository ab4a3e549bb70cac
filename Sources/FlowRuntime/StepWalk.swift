import FlowModel

/// Every step of a workflow in the order a run meets it, with what is known before the run about
/// whether it runs: for the checks that must speak of "every" step (cycles that never end, what an
/// unattended run would have to ask).
public enum StepWalk {
  /// One step, where it stands.
  public struct Visit {
    /// The step, read where it stands: a visit holds the list and the step's index in it, so that
    /// making one costs a reference, not a copy of the step (a walk of a big file spent more on copying
    /// steps than on anything it did with them).
    public var step: Step { steps[index] }
    let steps: [Step]
    let index: Int
    /// As the run numbers it: `3`, `2.1` for the first step inside step 2. Made when asked: most visits
    /// never name their step, and a walk of a big file made a string for each.
    public var position: String { prefix + String(number) }
    /// What the position starts with (`2.`, `on-failure.`), and the step's number under it.
    let prefix: String
    let number: Int
    /// Whether it runs whenever the workflow runs: at the top level, without `when`, and with no `stop`
    /// before it that might end the run. Steps inside `if`, `menu` and loops may not run.
    public var certain: Bool
    /// Inside a block whose `confirm:` answers the confirmations of the actions in it.
    public var confirmedBlock: Bool
  }

  /// Calls `visit` for each step, blocks before the steps inside them.
  public static func walk(_ steps: [Step], _ visit: (Visit) -> Void) {
    var stopped = false
    walk(steps, prefix: "", first: 1, certain: true, confirmedBlock: false, stopped: &stopped, visit)
  }

  /// Calls `visit` for each step of `workflow`, then, when `onFailure` is on, for each of its `on-failure:`
  /// steps (positions `on-failure.1`…), none of which is certain to run. A workflow that `run-workflow`
  /// runs never runs its own `on-failure:` (the run's failure is its caller's), so walks that follow
  /// what a run does leave it out for those; checks of the file take it in.
  public static func walk(_ workflow: Workflow, onFailure: Bool = true, _ visit: (Visit) -> Void) {
    walk(workflow.steps, visit)
    guard onFailure else { return }
    var stopped = false
    walk(
      workflow.onFailure, prefix: Step.onFailurePrefix, first: 1, certain: false, confirmedBlock: false,
      stopped: &stopped, visit)
  }

  private static func walk(
    _ steps: [Step], prefix: String, first: Int, certain: Bool, confirmedBlock: Bool, stopped: inout Bool,
    _ visit: (Visit) -> Void
  ) {
    for index in steps.indices {
      let runs = certain && steps[index].when == nil && !stopped
      visit(
        Visit(
          steps: steps, index: index, prefix: prefix, number: first + index, certain: runs,
          confirmedBlock: confirmedBlock))
      // An action holds no steps and stops nothing: most steps, passed without reading their kind again.
      if case .action = steps[index].kind { continue }
      var nestedStop = steps[index].kind.keyword == .stop
      let bodies = steps[index].kind.bodies
      if !bodies.isEmpty {
        let inner = confirmedBlock || steps[index].confirm != nil
        let position = prefix + String(first + index) + "."
        for (body, first) in zip(bodies, steps[index].kind.bodyStarts) {
          walk(
            body, prefix: position, first: first, certain: false, confirmedBlock: inner, stopped: &nestedStop, visit)
        }
      }
      if nestedStop { stopped = true }
    }
  }
}

extension Step {
  /// The workflow a `run-workflow` step names when it is written out (`run-workflow: sub/triage.yml`);
  /// nil for a computed name (`${…}`), known only when the step runs.
  public var literalWorkflowReference: String? {
    guard case .runWorkflow(let reference, _) = kind else { return nil }
    switch reference {
    case .text(let template): return template.literal
    case .integer(let number, _): return String(number)
    case .double(let number, _): return String(number)
    case .null: return ""
    default: return nil
    }
  }
}
