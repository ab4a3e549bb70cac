import FlowDiagnostics
import FlowIntents
import FlowModel
import FoundationEssentials

/// Runs checked workflows: steps in order, each step's output passed on as a magic variable, blocks,
/// variables, nested workflows, and the step keys `when`, `confirm`, `on-error`, `retry` and `timeout`.
///
/// Parameter resolution (coercion, enums, ranges, entity queries, asking for what is missing) happens
/// in one place, ``IntentDescriptor/run(values:asking:context:)``; the interpreter evaluates what the
/// workflow wrote and hands the values over.
public struct Interpreter: Sendable {
  public struct Options: Sendable {
    /// Perform no intent that changes anything; show it and pass on a typed placeholder instead.
    public var dryRun = false
    /// In a dry run, perform the steps that only read from a host a step names (`get-url` with GET):
    /// `--dry-run=reads`. Without it a dry run contacts no such host, since a GET can be a webhook.
    public var dryRunReads = false
    /// How deep `run-workflow` may nest, so that a workflow running itself ends with a clear error.
    public var maxWorkflowDepth = 8
    /// Identifies the run in `${run.id}` and in history.
    public var runID = "run"
    /// `${trigger}`: what fired, for a run a trigger started (``TriggerValue``); nil for a run by hand.
    public var trigger: FlowValue?
    /// The process environment; a workflow sees only the names its `env:` lists.
    public var environment: [String: String] = [:]
    /// The values of the secrets the workflows of the run list under `secrets:`, read from the keyring
    /// before step 1; each workflow sees only the names it lists.
    public var secrets: [String: String] = [:]
    /// Give the steps inside loops ids that carry their pass (`2#3.1`), for a report that lists every
    /// step (`--json`). Off, ids are positions: building a second string for every step and pass cost a
    /// million trivial steps a sixth more time, for what only that report shows.
    public var passIDs = false
    /// How large a value may grow and how many passes a loop may make (`limits:` in config.yml).
    public var limits = ValueLimits()

    public init() {}
  }

  let registry: IntentRegistry
  let context: IntentContext
  let loader: any WorkflowLoading
  let observer: any RunObserver
  let options: Options
  /// Where actions say what they went on past; the run's own, or the one of the run this one is in.
  let warnings: StepWarnings

  public init(
    registry: IntentRegistry, context: IntentContext, loader: any WorkflowLoading,
    observer: any RunObserver = SilentObserver(), options: Options = Options()
  ) {
    self.registry = registry
    var context = context
    context.prompter = BlockConfirmingPrompter(base: context.prompter)
    // A dry run shows what would happen; it does not sit through `wait` or the delays of `retry`.
    if options.dryRun { context.clock = UnwaitingClock(base: context.clock) }
    if let warnings = context.dependency(StepWarnings.self) {
      self.warnings = warnings
    } else {
      warnings = StepWarnings()
      context = context.with(warnings)
    }
    self.context = context
    self.loader = loader
    self.observer = observer
    self.options = options
  }

  /// What a run produced.
  public struct Result: Sendable {
    /// The value given to `stop`, or else the last step's output.
    public var output: FlowValue
    /// Whether the run ended with `stop` (Shortcuts' "Stop and Output").
    public var stopped: Bool
  }

  /// Runs `workflow` with its inputs already resolved; when it fails, runs its `on-failure:` steps and
  /// then throws the failure that ended it.
  public func run(_ workflow: Workflow, inputs: FlowDictionary) async throws(RunError) -> Result {
    do {
      return try await run(workflow, inputs: inputs, depth: 0, caller: nil)
    } catch {
      guard !workflow.onFailure.isEmpty, Self.runsOnFailure(after: error.kind) else { throw error }
      throw await runOnFailure(workflow, inputs: inputs, after: error)
    }
  }

  /// Runs `workflow`'s `on-failure:` for `failure`, which stopped a run nobody started by hand before its
  /// first step (the file invalid after an edit, a question nobody could answer, a server not
  /// configured here), so that the person hears of it as of any failure; returns the error the run ends
  /// with, as ``run(_:inputs:)`` does. `inputs` are those known by then (given, or defaults).
  public func runOnFailure(_ workflow: Workflow, inputs: FlowDictionary, before failure: RunError) async -> RunError {
    guard !workflow.onFailure.isEmpty, failure.kind != .cancelled else { return failure }
    return await runOnFailure(workflow, inputs: inputs, after: failure)
  }

  /// Whether a run that ended so has failed, and runs `on-failure:`: a step failed, the backend could
  /// not be reached, or a question nobody could answer stopped it midway. A cancelled run was ended on
  /// purpose, and an invalid one ran nothing.
  static func runsOnFailure(after kind: RunError.Kind) -> Bool {
    switch kind {
    case .stepFailed, .needsInput, .backendUnavailable: true
    case .cancelled, .invalid: false
    }
  }

  /// Runs `on-failure:` after `failure` ended the run, and returns the error the run ends with: always
  /// `failure` — its kind, and so its exit status, and its diagnostics — with a warning added when
  /// `on-failure:` failed too. A failure in there never runs `on-failure:` again.
  ///
  /// Its steps see a scope of their own: the inputs, the built-ins and `${run.error}`, not the outputs
  /// of `steps:`, which may not have run (the checker says the same, so a reference to one is caught
  /// before the run rather than failing here).
  private func runOnFailure(_ workflow: Workflow, inputs: FlowDictionary, after failure: RunError) async -> RunError {
    observer.record(.runFailed(failure))
    var scope = self.scope(of: workflow, inputs: inputs)
    scope.runError = RunFailureValue.value(of: failure)
    let block = StepInfo(position: String(Step.onFailurePrefix.dropLast()), label: "on-failure")
    var ended = failure
    do {
      try await run(workflow.onFailure, in: block, scope: &scope, workflow: workflow, depth: 0)
    } catch is Stop {
      // `stop` ends the block early; the run's outcome is still the failure.
    } catch {
      let inner =
        (error as? RunError)?.diagnostics.all.first
        ?? Diagnostic(.error, .cancelled, "the run was cancelled", file: workflow.file.path)
      var secondary = inner
      secondary.severity = .warning
      secondary.code = .onFailureFailed
      ended.diagnostics.append(
        secondary.note(
          "'on-failure' ran because the run failed; the run ends with that first failure and its exit status"))
    }
    return ended
  }

  /// The magic variables a workflow's steps start with.
  private func scope(of workflow: Workflow, inputs: FlowDictionary) -> Scope {
    let names = workflow.environment.map(\.value)
    let allowed = Set(names)
    var scope = Scope(
      inputs: inputs,
      builtIns: Scope.BuiltIns(
        workflowName: workflow.name, runID: options.runID,
        environment: options.environment.filter { allowed.contains($0.key) }, clock: context.clock,
        trigger: options.trigger, environmentNames: names,
        secrets: workflow.secrets.isEmpty
          ? [:]
          : options.secrets.filter { name, _ in
            workflow.secrets.contains { $0.value == name }
          }))
    scope.textLimit = options.limits.textBytes
    return scope
  }

  /// Runs `workflow`, nested `depth` levels deep; `caller` is the `run-workflow` step that runs it, whose
  /// id its steps' ids go under (`3.1` is the first step of the workflow step 3 runs), as a block's do.
  private func run(_ workflow: Workflow, inputs: FlowDictionary, depth: Int, caller: StepInfo?) async throws(RunError)
    -> Result
  {
    var scope = scope(of: workflow, inputs: inputs)
    do {
      try await run(
        workflow.steps, idPrefix: caller.flatMap { options.passIDs ? $0.id + "." : nil }, scope: &scope,
        workflow: workflow, depth: depth)
      return Result(output: scope.previous, stopped: false)
    } catch let stop as Stop {
      return Result(output: stop.output, stopped: true)
    } catch let error as RunError {
      throw error
    } catch {
      throw RunError(.cancelled, Diagnostic(.error, .cancelled, "the run was cancelled", file: workflow.file.path))
    }
  }

  /// Thrown by `stop` to unwind the blocks it is in.
  private struct Stop: Error {
    var output: FlowValue
  }

  // MARK: - Steps

  /// Runs a list of steps: a workflow's, or those of the block `parent` (in loop pass `pass`). A nested
  /// workflow's steps are numbered from 1 in their own file; `idPrefix` puts their ids under the step
  /// that runs it.
  private func run(
    _ steps: [Step], in parent: StepInfo? = nil, first: Int = 1, pass: Int? = nil, idPrefix: String? = nil,
    scope: inout Scope, workflow: Workflow, depth: Int
  ) async throws {
    // Messages name a step where it is written (`2.1`), the same in every pass; ids add the pass of each
    // loop the step is in (`2#3.1`), so that reports tell the passes apart.
    // This runs for every step, so a second string is built only when it differs from the position (inside
    // a loop) and only when asked for (``Options/passIDs``): ids are for reports; people read positions.
    let position = parent.map { $0.position + "." } ?? ""
    let id: String? =
      parent.flatMap { parent in
        guard options.passIDs else { return nil }
        if let pass { return parent.id + "#" + String(pass) + "." }
        return parent.id == parent.position ? nil : parent.id + "."
      } ?? idPrefix
    for (offset, step) in steps.enumerated() {
      try Task.checkCancellation()
      let number = String(first + offset)
      let info = StepInfo(position: position + number, label: step.label, id: id.map { $0 + number })
      do {
        try await run(step, info: info, scope: &scope, workflow: workflow, depth: depth)
      } catch var error as RunError where error.step == nil {
        // The innermost step it happened in, for `${run.error.step}`.
        error.step = info
        throw error
      }
    }
  }

  private func run(_ step: Step, info: StepInfo, scope: inout Scope, workflow: Workflow, depth: Int) async throws {
    if let condition = step.when, try !evaluate({ try Evaluator.evaluate(condition, in: scope) }) {
      observer.record(
        .finished(StepRecord(step: info.id, position: info.position, action: info.label, status: .skipped)))
      return
    }
    // Started before its confirmation: a declined or unanswerable one ends the run in this step.
    observer.record(.started(info))
    if let confirmation = step.confirm, !options.dryRun {
      let words = try confirmation.message.map { message in
        try evaluate { try Evaluator.evaluate(message, in: scope).text }
      }
      if isAction(step) {
        // Asked by the action, with its own question (which files, for good or not) after the words.
        let question = StepQuestion(words: words, fallback: "Run \(info.description)?")
        do {
          try await StepQuestion.$current.withValue(question) {
            try await runConfirmed(step, info: info, scope: &scope, workflow: workflow, depth: depth)
          }
        } catch let error as RunError where error.kind == .cancelled && question.declined {
          throw RunError(
            .cancelled, Diagnostic(.error, .cancelled, "cancelled at \(info.description)", at: confirmation.span))
        }
        return
      }
      let confirmed = try await ask(at: confirmation.span, info) {
        try await context.prompter.requestConfirmation(
          ConfirmationRequest(
            kind: .alert, origin: PromptOrigin(intentID: info.label), dialog: words ?? "Run \(info.description)?"))
      }
      guard confirmed else {
        throw RunError(
          .cancelled, Diagnostic(.error, .cancelled, "cancelled at \(info.description)", at: confirmation.span))
      }
      // One answer covers the block: a confirmed `for-each` of deletions asks once, not per item.
      try await BlockConfirmingPrompter.$confirmed.withValue(true) {
        try await runConfirmed(step, info: info, scope: &scope, workflow: workflow, depth: depth)
      }
      return
    }
    try await runConfirmed(step, info: info, scope: &scope, workflow: workflow, depth: depth)
  }

  private func runConfirmed(_ step: Step, info: StepInfo, scope: inout Scope, workflow: Workflow, depth: Int)
    async throws
  {
    let output: FlowValue
    do {
      output = try await attempt(step, info: info) { () async throws -> FlowValue in
        try await perform(step, info: info, scope: &scope, workflow: workflow, depth: depth)
      }
    } catch let error as RunError where error.kind == .stepFailed && step.onError == .continue {
      let failure = error.diagnostics.all.first
      observer.record(
        .finished(
          StepRecord(
            step: info.id, position: info.position, action: info.label, status: .failed, error: failure?.message,
            warning: failure.map(Self.continued))))
      scope.previous = .nothing
      scope.outputStandIn = nil
      if let name = step.name, !isForEach(step) { scope.names[name.value] = .nothing }
      keepStandIn(of: step, in: &scope)
      return
    }
    scope.previous = output
    if let name = step.name, !isForEach(step) {
      scope.names[name.value] = output
      scope.appended[name.value] = nil
    }
    keepStandIn(of: step, in: &scope)
  }

  /// Dry runs: remembers whether the step's output (in `previous`, and its `as` name) stands in for what
  /// a step that was not performed would have made, so that text shows it as `⟨save-bookmark output⟩`.
  private func keepStandIn(of step: Step, in scope: inout Scope) {
    guard options.dryRun else { return }
    scope.standIns["previous"] = scope.outputStandIn
    if let name = step.name, !isForEach(step) { scope.standIns[name.value] = scope.outputStandIn }
    scope.outputStandIn = nil
  }

  /// Runs `body` again after a failure, as often as the step's `retry` allows.
  private func attempt(_ step: Step, info: StepInfo, _ body: () async throws -> FlowValue) async throws -> FlowValue {
    let attempts = step.retry?.attempts ?? 1
    var attempt = 1
    while true {
      do {
        return try await body()
      } catch let error as RunError where error.kind == .stepFailed && attempt < attempts {
        attempt += 1
        try await context.clock.sleep(for: step.retry?.delay ?? .seconds(1))
      }
    }
  }

  /// Runs an intent, failing the step when it takes longer than `timeout` of wall-clock time.
  private func withTimeout(
    _ timeout: Located<Duration>?, info: StepInfo, _ body: @escaping @Sendable () async throws -> IntentOutput
  ) async throws -> IntentOutput {
    guard let timeout else { return try await body() }
    return try await withThrowingTaskGroup(of: IntentOutput?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: timeout.value)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let output = first else {
        throw RunError(
          .stepFailed,
          Diagnostic(
            .error, .stepFailed, "\(info.description) took longer than its timeout of \(timeout.value)",
            at: timeout.span))
      }
      return output
    }
  }

  private func perform(_ step: Step, info: StepInfo, scope: inout Scope, workflow: Workflow, depth: Int) async throws
    -> FlowValue
  {
    scope.outputStandIn = nil
    switch step.kind {
    case .action(let call):
      return try await perform(
        call, step: step, info: info, scope: &scope, shared: workflow.shared != nil || workflow.embeddedName != nil)

    case .ifBlock(let condition, let then, let otherwise):
      let holds = try evaluate { try Evaluator.evaluate(condition, in: scope) }
      let branch = holds ? then : otherwise
      let before = scope.previous
      try await run(
        branch, in: info, first: holds ? 1 : then.count + 1, scope: &scope, workflow: workflow, depth: depth)
      finish(info, output: branch.isEmpty ? before : scope.previous)
      scope.outputStandIn = scope.standIns["previous"]
      return branch.isEmpty ? before : scope.previous

    case .repeatBlock(let countValue, let body):
      let value = try evaluate { try Evaluator.evaluate(countValue, in: scope) }
      guard
        let count = (try? Coercion.coerce(value, to: .number)).flatMap({
          if case .number(let n) = $0 { n } else { nil }
        }),
        count >= 0, count == count.rounded()
      else {
        throw RunError(
          .stepFailed,
          Diagnostic(
            .error, .stepFailed, "\(info.description): expected a whole number of times, got \(value.quoted)",
            at: countValue.span))
      }
      // Counted before any pass: a billion passes would fill memory with their outputs.
      guard count <= Double(options.limits.passes) else {
        throw options.limits.tooManyPasses(
          info.description, count < 1e15 ? ValueLimits.number(Int(count)) : FlowValue.formatNumber(count),
          at: countValue.span)
      }
      let outputs = try await loop(
        count: Int(count), item: { .number(Double($0 + 1)) }, itemName: nil, body: body, info: info,
        span: step.span, scope: &scope, workflow: workflow, depth: depth)
      return outputs

    case .forEach(let itemsValue, let body):
      let value = try evaluate { try Evaluator.evaluate(itemsValue, in: scope) }
      let items: [FlowValue] =
        switch value {
        case .list(let items): items
        case .nothing: []
        default: [value]
        }
      guard items.count <= options.limits.passes else {
        throw options.limits.tooManyPasses(info.description, ValueLimits.number(items.count), at: itemsValue.span)
      }
      return try await loop(
        count: items.count, item: { items[$0] }, itemName: step.name?.value, body: body, info: info,
        span: step.span, scope: &scope, workflow: workflow, depth: depth)

    case .menu(let promptValue, let menuOptions, let defaultOption):
      let prompt = try evaluate { try Evaluator.evaluate(promptValue, in: scope).text }
      let labels = menuOptions.map(\.label.value)
      let chosen: Int
      do {
        let answer = try await context.prompter.requestChoice(
          ChoiceRequest(kind: .choice, origin: PromptOrigin(intentID: "menu"), dialog: prompt, options: labels))
        guard let first = answer.first, labels.indices.contains(first) else { throw AppIntentError.userCancelled }
        chosen = first
      } catch let error as AppIntentError where error.kind == .needsChoice {
        guard let defaultOption, let index = labels.firstIndex(of: defaultOption.value) else {
          throw failure(
            error, info: info, span: step.span,
            help: "give the menu a 'default:' for unattended runs, or run at a terminal")
        }
        chosen = index
      } catch {
        throw failure(error, info: info, span: step.span)
      }
      try await run(
        menuOptions[chosen].steps, in: info, first: step.kind.bodyStarts[chosen], scope: &scope, workflow: workflow,
        depth: depth)
      finish(info, output: scope.previous)
      scope.outputStandIn = scope.standIns["previous"]
      return scope.previous

    case .stop(let outputValue):
      var output =
        try outputValue.map { value in try evaluate { try Evaluator.evaluate(value, in: scope) } } ?? .nothing
      if let label = outputValue.flatMap({ Evaluator.standIn(of: $0, in: scope) }) { output = .text(label) }
      finish(info, output: output)
      throw Stop(output: output)

    case .runWorkflow(let reference, let inputValue):
      return try await runWorkflow(reference, input: inputValue, info: info, scope: scope, from: workflow, depth: depth)

    case .set(let variable, let value):
      let assigned =
        try value.map { value in try evaluate { try Evaluator.evaluate(value, in: scope) } } ?? scope.previous
      try options.limits.check(assigned, made: info.description, at: step.span)
      scope.names[variable.value] = assigned
      scope.appended[variable.value] = nil
      if options.dryRun {
        scope.outputStandIn = value.map { Evaluator.standIn(of: $0, in: scope) } ?? scope.standIns["previous"]
        scope.standIns[variable.value] = scope.outputStandIn
      }
      finish(info, output: assigned)
      return assigned

    case .append(let variable, let value):
      let added = try value.map { value in try evaluate { try Evaluator.evaluate(value, in: scope) } } ?? scope.previous
      // Taken out of the scope while it grows, so the list is not copied: a loop of appends stays linear.
      var list: [FlowValue] =
        switch scope.names.removeValue(forKey: variable.value) {
        case .list(let items)?: items
        case nil, .nothing?: []
        case let single?: [single]
        }
      // Measured as it grows (the whole list once, then each addition), so that a loop of appends stays
      // linear and still stops at the limit.
      var measure = scope.appended[variable.value] ?? options.limits.measure(.list(list))
      measure = measure + options.limits.measure(added)
      measure.items += 1
      if let problem = options.limits.problem(measure) {
        scope.names[variable.value] = .list(list)
        throw options.limits.tooLarge(info.description, problem, at: step.span)
      }
      scope.appended[variable.value] = measure
      list.append(added)
      scope.names[variable.value] = .list(list)
      scope.standIns[variable.value] = nil
      // Like `set`, it passes its value on; passing the list would keep every version of it alive in a
      // loop's output and in `previous`, and make each append copy it.
      finish(info, output: added)
      return added
    }
  }

  /// `repeat` and `for-each`: the body once per item; the output is the list of each pass's last output.
  /// `count` passes over `body`, the item of pass `n` (from 0) being `item(n)`. The outputs are measured
  /// as they are collected: each is within the limits, but a million of them need not be.
  private func loop(
    count: Int, item: (Int) -> FlowValue, itemName: String?, body: [Step], info: StepInfo, span: SourceSpan,
    scope: inout Scope, workflow: Workflow, depth: Int
  ) async throws -> FlowValue {
    let outer = scope.loop
    defer { scope.loop = outer }
    var outputs: [FlowValue] = []
    outputs.reserveCapacity(count)
    var measure = ValueLimits.Measure(items: 0)
    for offset in 0..<count {
      try Task.checkCancellation()
      observer.record(.loopProgress(info, pass: offset + 1, total: count))
      scope.loop = Scope.Loop(item: item(offset), index: offset + 1, itemName: itemName)
      try await run(body, in: info, pass: offset + 1, scope: &scope, workflow: workflow, depth: depth)
      measure = measure + options.limits.measure(scope.previous)
      measure.items += 1
      if let problem = options.limits.problem(measure) {
        throw options.limits.tooLarge(info.description, problem, at: span)
      }
      outputs.append(scope.previous)
    }
    let output = FlowValue.list(outputs)
    finish(info, output: output)
    return output
  }

  // MARK: - Actions

  private func perform(_ call: ActionCall, step: Step, info: StepInfo, scope: inout Scope, shared: Bool) async throws
    -> FlowValue
  {
    let descriptor: IntentDescriptor
    do {
      descriptor = try registry.descriptor(for: call.id.value)
    } catch {
      throw RunError(.invalid, error.diagnostic(at: call.id.span))
    }
    var values: [String: FlowValue] = [:]
    var spans: [String: SourceSpan] = [:]
    var asking: Set<String> = []
    var standIns: [String: String] = [:]
    // Dry runs: some parameter is computed from a stand-in, so a failure may be the made-up value's.
    var madeUp = false
    for (key, value) in try Self.arguments(of: call, for: descriptor) {
      spans[key] = value.span
      if case .ask = value {
        asking.insert(key)
      } else {
        values[key] = try evaluate { try Evaluator.evaluate(value, in: scope) }
        madeUp = madeUp || options.dryRun && Evaluator.readsStandIn(value, in: scope)
        if options.dryRun, let label = Evaluator.standIn(of: value, in: scope) {
          standIns[key] = label
          // Where text is wanted, the stand-in shows as what it stands for, never as its made-up value.
          if let type = descriptor.parameter(key)?.type, type == .text || type == .any { values[key] = .text(label) }
        }
      }
    }
    // An entity a step before did not make cannot be looked up: the step waits on it as a change would.
    let waiting = Set(
      standIns.keys.filter { key in
        if case .entity = descriptor.parameter(key)?.type.elementType { return true }
        return false
      })
    if options.dryRun,
      descriptor.sideEffect(for: values) != .readOnly || !waiting.isEmpty
        || (!options.dryRunReads && descriptor.networkAccess.reachesNamedHosts)
    {
      return try await dryRun(
        descriptor, call: call, values: values, asking: asking, standIns: standIns, unresolved: waiting, spans: spans,
        info: info, scope: &scope)
    }
    let output: IntentOutput
    do {
      // Only for the actions that read it: a copy of the context for every step would cost every run.
      var context =
        descriptor.environmentNameParameters.isEmpty
        ? context
        : context.with(
          WorkflowEnvironment(allowed: scope.builtIns.environmentNames, values: scope.builtIns.environment))
      // A shared file's steps say so (run-shell fences them); your own file's pay nothing for it.
      if shared { context = context.with(RunOrigin(shared: true)) }
      // The step's `confirm:`, which its action asks with its own question.
      if step.confirm != nil { context.question = StepQuestion.current }
      // Likewise the progress reporter: only actions that report get one, and their step ends it.
      if descriptor.reportsProgress {
        context.progress = ProgressReporter { [observer] in observer.record(.progress(info, $0)) }
      }
      defer { if descriptor.reportsProgress { observer.record(.progressEnded(info)) } }
      let (values, asking, stepContext) = (values, asking, context)
      output = try await withTimeout(step.timeout, info: info) {
        try await descriptor.run(values: values, asking: asking, context: stepContext)
      }
    } catch let error as RunError {
      throw error
    } catch let error where madeUp && RunError.classify(error) == .stepFailed {
      // It read what a step the dry run did not perform would have made (`calculate: ${saved.id} + 1`):
      // the real value may well work, so the step is shown, as a change is, rather than failed.
      return try await dryRun(
        descriptor, call: call, values: values, asking: asking, standIns: standIns, unresolved: waiting, spans: spans,
        info: info, scope: &scope)
    } catch {
      let key = (error as? AppIntentError)?.origin?.parameterKey
      throw failure(error, info: info, span: key.flatMap { spans[$0] } ?? call.id.span, parameter: key)
    }
    // Checked as each action makes it, so that nothing larger is ever built from it.
    try options.limits.check(output.value, made: info.description, at: step.span)
    var value = output.value
    if let condition = step.where { value = try keep(value, where: condition, scope: scope, action: call.id.value) }
    if let dialog = output.dialog { observer.record(.dialog(dialog, info)) }
    let noticed = warnings.take()
    if noticed.isEmpty {
      finish(info, output: value)
    } else {
      // Recorded whether or not the observer lists steps: a warning is for the person.
      let warning = Diagnostic(
        .warning, .partlyDone, "\(info.description): " + List.and(noticed), at: call.id.span)
      observer.record(
        .finished(
          StepRecord(
            step: info.id, position: info.position, action: info.label, status: .ran, warning: warning,
            value: value)))
    }
    return value
  }

  /// A step's `where:`: the items of the action's list for which the condition holds, each tested as
  /// `${item}` (and `${index}`, from 1). The name an enclosing `for-each` gives its item stays visible.
  private func keep(_ output: FlowValue, where condition: Located<Condition>, scope: Scope, action: String) throws
    -> FlowValue
  {
    let items: [FlowValue]
    switch output {
    case .list(let list): items = list
    case .nothing: return .list([])
    default:
      throw RunError(
        .stepFailed,
        Diagnostic(
          .error, .notAList, "'where' keeps items of a list, but '\(action)' gave \(output.quoted)",
          at: condition.span))
    }
    var inner = scope
    if let loop = scope.loop, let name = loop.itemName { inner.names[name] = loop.item }
    var kept: [FlowValue] = []
    for (index, item) in items.enumerated() {
      inner.loop = Scope.Loop(item: item, index: index + 1, itemName: nil)
      if try evaluate({ try Evaluator.evaluate(condition.value, in: inner) }) { kept.append(item) }
    }
    return .list(kept)
  }

  /// A step a dry run does not perform. Its parameters are resolved as the real run resolves them —
  /// entities looked up through their queries, which only read — so that the dry run meets what the
  /// real run would (a collection that does not exist); then it is shown with those values and passes
  /// on a typed stand-in for its output. A lookup of an entity of a type that an earlier unperformed step
  /// would have made (the collection it would have created) is passed over rather than failed.
  private func dryRun(
    _ descriptor: IntentDescriptor, call: ActionCall, values: [String: FlowValue], asking: Set<String>,
    standIns: [String: String], unresolved: Set<String>, spans: [String: SourceSpan], info: StepInfo,
    scope: inout Scope
  ) async throws -> FlowValue {
    var unresolved = unresolved
    var resolved: [String: FlowValue] = [:]
    while true {
      do {
        resolved = try await descriptor.resolve(
          values: values, asking: asking, unresolved: unresolved, context: context)
        break
      } catch let error as AppIntentError where error.kind == .entityNotFound {
        guard let key = error.origin?.parameterKey, !unresolved.contains(key),
          case .entity(let entity)? = descriptor.parameter(key)?.type.elementType,
          scope.standInTypes.contains(entity.name)
        else {
          let key = error.origin?.parameterKey
          throw failure(error, info: info, span: key.flatMap { spans[$0] } ?? call.id.span, parameter: key)
        }
        unresolved.insert(key)
      } catch {
        let key = (error as? AppIntentError)?.origin?.parameterKey
        throw failure(error, info: info, span: key.flatMap { spans[$0] } ?? call.id.span, parameter: key)
      }
    }
    var shown: [String: String] = [:]
    for key in Set(values.keys).union(asking) {
      shown[key] =
        standIns[key] ?? (unresolved.contains(key) ? values[key] : resolved[key]).map(Prompting.optionText(for:))
    }
    observer.record(
      .finished(
        StepRecord(
          step: info.id, position: info.position, action: info.label, status: .dryRun,
          output: descriptor.outputType?.name,
          summary: descriptor.summary.render(values: shown))))
    let label = "⟨\(info.label) output⟩"
    guard let type = descriptor.outputType, type != .nothing else { return .nothing }
    scope.outputStandIn = label
    if case .entity(let entity) = type.elementType { scope.standInTypes.insert(entity.name) }
    return Placeholder.value(of: type, label: label)
  }

  /// The parameters a step passes, by key: the primary parameter for a bare value, the named ones for a
  /// mapping — or, for an action whose primary parameter is a dictionary, the mapping as that dictionary.
  public static func arguments(of call: ActionCall, for descriptor: IntentDescriptor) throws(RunError) -> [(
    String, Value
  )] {
    switch call.arguments {
    case .none:
      return []
    case .primary(let value):
      guard let primary = descriptor.primaryParameter else {
        throw RunError(
          .invalid,
          Diagnostic(
            .error, .stepFailed, "'\(descriptor.id)' takes named parameters, not a single value", at: value.span))
      }
      return [(primary.key, value)]
    case .named(let entries, let span):
      if let primary = descriptor.primaryParameter, primary.type == .dictionary,
        entries.contains(where: { descriptor.parameter($0.key.value) == nil })
      {
        return [(primary.key, .dictionary(entries, span))]
      }
      return entries.map { ($0.key.value, $0.value) }
    }
  }

  // MARK: - Nested workflows

  private func runWorkflow(
    _ reference: Value, input: Value?, info: StepInfo, scope: Scope, from workflow: Workflow, depth: Int
  ) async throws -> FlowValue {
    let name = try evaluate { try Evaluator.evaluate(reference, in: scope).text }
    guard depth < options.maxWorkflowDepth else {
      throw RunError(
        .stepFailed,
        Diagnostic(
          .error, .stepFailed, "\(info.description): workflows nest deeper than \(options.maxWorkflowDepth) levels",
          at: reference.span
        )
        .help("a workflow that runs itself needs a condition that ends it"))
    }
    let child: Workflow
    do {
      child = try loader.load(name, from: workflow)
    } catch {
      // Steps have run by now: the run failed, it is not "invalid, nothing ran".
      let lead = Diagnostic(.error, .stepFailed, "\(info.description): \(error.message)", at: reference.span)
        .help(error.help)
      throw RunError(.stepFailed, Diagnostics([lead] + error.diagnostics.all))
    }
    let inputs = try await childInputs(child, input: input, at: input?.span ?? reference.span, info: info, scope: scope)
    let result: Result
    do {
      result = try await run(child, inputs: inputs, depth: depth + 1, caller: info)
    } catch {
      // Its steps are numbered in their own file; history puts them under this step, and so does
      // `${run.error.step}`.
      var error = error
      if let inner = error.step {
        error.step = StepInfo(position: info.position + "." + inner.position, label: inner.label)
      }
      throw error
    }
    finish(info, output: result.output)
    return result.output
  }

  /// The inputs `input:` gives the workflow a `run-workflow` step runs, resolved as `flow run` resolves
  /// a workflow's inputs: typed by the child's declarations, defaults filled, and `ask` (or a missing
  /// input, which only a computed reference lets through the check) asked for. A value that does not
  /// fit fails the step at `input:`: steps have run by now, so it is not "invalid, nothing ran".
  private func childInputs(_ child: Workflow, input: Value?, at span: SourceSpan, info: StepInfo, scope: Scope)
    async throws -> FlowDictionary
  {
    let declared = child.inputs.map(\.name.value)
    var given: [String: FlowValue] = [:]
    var asking: Set<String> = []
    func give(_ name: String, _ value: Value) throws {
      if case .ask = value {
        asking.insert(name)
      } else {
        given[name] = try evaluate { try Evaluator.evaluate(value, in: scope) }
      }
    }
    switch input {
    case nil:
      break
    case .ask?:
      asking = Set(declared)
    case let value? where declared.count == 1 && !Workflow.namesInputs(value, of: declared):
      try give(declared[0], value)
    case .dictionary(let entries, _)?:
      for entry in entries { try give(entry.key.value, entry.value) }
    case let value?:
      switch try evaluate({ try Evaluator.evaluate(value, in: scope) }) {
      case .dictionary(let dictionary):
        given = Dictionary(dictionary.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
      case let other: given["input"] = other
      }
    }
    do {
      return try await InputResolver.resolve(
        child, given: given, asking: asking, registry: registry, prompter: context.prompter,
        clock: context.clock)
    } catch {
      // (A `catch where` on the typed error crashes Swift 6.3.1's SIL ownership checker.)
      guard error.kind == .invalid else { throw error }
      let inner = error.diagnostics.all.first
      var lead = Diagnostic(
        .error, .stepFailed, "\(info.description): \(inner?.message ?? "its input does not fit '\(child.name)'")",
        at: span
      )
      if let declaration = inner?.span { lead = lead.note("the input is declared here", at: declaration) }
      throw RunError(.stepFailed, lead.help(inner?.helps.first))
    }
  }

  // MARK: - Helpers

  private func finish(_ info: StepInfo, output: FlowValue) {
    // A record per step costs more than many a step; only an observer that lists steps asks for one.
    guard observer.recordsSteps else { return }
    observer.record(
      .finished(
        StepRecord(
          step: info.id, position: info.position, action: info.label, status: .ran, value: output)))
  }

  private func isAction(_ step: Step) -> Bool {
    if case .action = step.kind { return true }
    return false
  }

  private func isForEach(_ step: Step) -> Bool {
    if case .forEach = step.kind { return true }
    return false
  }

  /// Runs a prompt, turning a refusal into the run error of its class.
  private func ask<T>(at span: SourceSpan, _ info: StepInfo, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch {
      throw failure(error, info: info, span: span)
    }
  }

  /// A failure that `on-error: continue` let the run go past: the same message at the same place, as a
  /// warning, so it is seen and the run still succeeds.
  static func continued(_ failure: Diagnostic) -> Diagnostic {
    var warning = failure
    warning.severity = .warning
    return warning.note("the step has 'on-error: continue', so the run went on and its output is nothing")
  }

  /// Evaluation failures become step failures at the place they point to.
  private func evaluate<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as RunFailure {
      throw RunError(.stepFailed, Diagnostic(.error, .stepFailed, error.message, at: error.span).help(error.help))
    }
  }

  /// A step's error as a diagnostic naming the step, the action and the parameter (SPEC §3).
  private func failure(
    _ error: any Error, info: StepInfo, span: SourceSpan, parameter: String? = nil, help: String? = nil
  ) -> RunError {
    if let error = error as? RunError { return error }
    let kind = RunError.classify(error)
    let (message, ownHelp) = AppIntentError.describe(error)
    let code: DiagnosticCode =
      switch kind {
      case .needsInput: .inputNeeded
      case .cancelled: .cancelled
      default: .stepFailed
      }
    var diagnostic = Diagnostic(.error, code, "\(info.description): \(message)", at: span)
    for note in (error as? AppIntentError)?.notes ?? [] { diagnostic = diagnostic.note(note) }
    var failure = RunError(kind, diagnostic.help(ownHelp ?? help))
    failure.exitStatus = (error as? AppIntentError)?.exitStatus
    failure.standardError = (error as? AppIntentError)?.standardError
    return failure
  }
}

/// Answers the confirmations that actions ask (delete-bookmark's) with yes inside a block the person
/// already confirmed with `confirm:`; everything else goes to the real prompter.
struct BlockConfirmingPrompter: Prompter {
  @TaskLocal static var confirmed = false
  let base: any Prompter

  func requestValue(_ request: ValueRequest) async throws -> FlowValue { try await base.requestValue(request) }
  func requestChoice(_ request: ChoiceRequest) async throws -> [Int] { try await base.requestChoice(request) }
  func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    if Self.confirmed, request.kind == .intent, !request.needsExplicitYes { return true }
    return try await base.requestConfirmation(request)
  }
}

/// Typed stand-ins for the outputs of steps a dry run does not perform, so that the steps after them
/// still run: an entity has every property of its type. Text is the label (`⟨save-bookmark output⟩`);
/// other values are made up, and the interpreter shows the label wherever one would become text.
enum Placeholder {
  static func value(of type: ValueType?, label: String) -> FlowValue {
    switch type {
    case nil, .nothing?: .nothing
    case .text?: .text(label)
    case .number?, .integer?: .number(0)
    case .boolean?: .boolean(false)
    case .date?: .date(Date(timeIntervalSince1970: 0))
    // The .invalid top-level domain is reserved: it can never be a real site.
    case .url?: .url(URL(string: "https://dry-run.invalid/") ?? URL(fileURLWithPath: "/"))
    case .list?: .list([])
    case .any?: .text(label)
    case .entity(let entity)?:
      .entity(
        EntityValue(
          typeName: entity.name, id: .nothing, title: label,
          properties: FlowDictionary(
            entity.properties.filter { $0.key != "id" }.map { (key: $0.key, value: value(of: $0.type, label: label)) }))
      )
    default: .nothing
    }
  }
}

/// The time of `base`, with sleeps that end at once (cancellation still ends them): a dry run's clock.
struct UnwaitingClock: FlowClock {
  let base: any FlowClock
  var now: Date { base.now }
  func sleep(for duration: Duration) async throws { try Task.checkCancellation() }
}
