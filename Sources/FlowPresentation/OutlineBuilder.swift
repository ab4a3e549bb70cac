import FlowIntents
import FlowModel
import FlowRuntime
import FoundationEssentials

/// Where a workflow file came from and who signed it: the inputs of its summary line that the file's
/// steps cannot tell.
public struct Provenance: Sendable, Hashable {
  /// When it was first shared (a `shared:` block's `created`); nil for a file that never was.
  public var created: Date?
  /// A `shared:` block's `modified`, or else the file's modification time.
  public var modified: Date?
  public var signature: SignatureStatus

  public init(created: Date? = nil, modified: Date? = nil, signature: SignatureStatus = .unsigned) {
    self.created = created
    self.modified = modified
    self.signature = signature
  }
}

/// Builds the ``Outline`` of a checked workflow: each step's parameter summary filled in with its values,
/// blocks with their branches, step keys as annotations, and each step's effect for the margin.
public struct OutlineBuilder: Sendable {
  let registry: IntentRegistry
  /// The analysis behind the outline: one per builder, so that each workflow it runs is walked once.
  public let analysis: CapabilityAnalysis

  /// - Parameter loader: finds the workflows `run-workflow` names, as `flow run` does; nil leaves them
  ///   unexamined.
  public init(registry: IntentRegistry, loader: (any WorkflowLoading)?) {
    self.registry = registry
    self.analysis = CapabilityAnalysis(registry: registry, loader: loader)
  }

  /// The outline of `workflow`, which should have passed the checker: an unknown action is shown by its id.
  public func outline(of workflow: Workflow, provenance: Provenance, now: Date) -> Outline {
    let (capabilities, nested) = analysis.analyzeTree(workflow)
    let pass = Pass(builder: self, workflow: workflow, autoConfirm: workflow.confirmations == .auto)
    let carried = Set(capabilities.workflows.filter { $0.carried == true }.compactMap(\.file))
    let workflows = nested.map { child in
      // The top workflow's `confirmations: auto` answers the confirmations of what it runs, as a run does.
      Outline.Nested(
        name: child.name, file: child.identity, carried: carried.contains(child.identity),
        steps: Pass(builder: self, workflow: child, autoConfirm: workflow.confirmations == .auto).steps(
          child.steps, prefix: ""))
    }
    let words = pass.words
    var outline = Outline(
      name: workflow.name, description: workflow.description, icon: workflow.icon, color: workflow.color,
      file: workflow.file.path,
      summary: SummaryLine(
        actionCount: workflow.actionCount, created: provenance.created, modified: provenance.modified,
        signature: provenance.signature, now: now),
      inputs: workflow.inputs.map { input in
        Outline.InputLine(
          name: input.name.value,
          type: input.type.map { ValueType(spelling: $0.value)?.name ?? $0.value },
          prompt: input.prompt,
          defaultValue: input.defaultValue.map {
            words.words($0, wanted: input.type.flatMap { ValueType(spelling: $0.value) } ?? .any)
          },
          askOnImport: input.askOnImport)
      },
      schedule: capabilities.schedule,
      steps: pass.steps(workflow.steps, prefix: ""),
      capabilities: capabilities)
    if !workflow.phrases.isEmpty { outline.phrases = workflow.phrases.map(\.value.text) }
    outline.onFailure = pass.steps(workflow.onFailure, prefix: Step.onFailurePrefix)
    outline.workflows = workflows
    return outline
  }
}

extension Workflow {
  /// How many actions the workflow has, as the summary line counts them: every step once, a block as one
  /// and the steps inside it each; those of `on-failure:` too.
  public var actionCount: Int { Self.count(steps) + Self.count(onFailure) }

  private static func count(_ steps: [Step]) -> Int {
    steps.reduce(0) { total, step in total + 1 + step.kind.bodies.reduce(0) { $0 + count($1) } }
  }
}

/// One walk over a workflow's steps, in document order.
private struct Pass {
  let builder: OutlineBuilder
  let workflow: Workflow
  let words: ValueWords
  /// Confirmations are answered without asking: the top workflow's `confirmations: auto`.
  let autoConfirm: Bool

  init(builder: OutlineBuilder, workflow: Workflow, autoConfirm: Bool) {
    self.builder = builder
    self.workflow = workflow
    self.words = ValueWords(referenceTypes: Checker(registry: builder.registry).referenceTypes(in: workflow))
    self.autoConfirm = autoConfirm
  }

  /// - Parameter confirmedBy: the position of the enclosing block whose `confirm:` answers the
  ///   confirmations its actions ask (one question for the lot), as a run does.
  func steps(_ steps: [Step], prefix: String, first: Int = 1, confirmedBy: String? = nil) -> [OutlineStep] {
    steps.enumerated().map { offset, step in
      self.step(step, position: prefix + String(first + offset), confirmedBy: confirmedBy)
    }
  }

  private func step(_ step: Step, position: String, confirmedBy: String?) -> OutlineStep {
    let sub = position + "."
    let inner = confirmedBy ?? (step.confirm != nil ? position : nil)
    func steps(_ body: [Step], prefix: String, first: Int = 1) -> [OutlineStep] {
      self.steps(body, prefix: prefix, first: first, confirmedBy: inner)
    }
    let starts = step.kind.bodyStarts
    var outline = OutlineStep(
      position: position, kind: .init(keyword: step.kind.keyword), action: nil, sentence: StyledText(),
      annotations: [], mark: nil, branches: [], end: nil)
    var descriptor: IntentDescriptor?
    switch step.kind {
    case .action(let call):
      descriptor = try? builder.registry.descriptor(for: call.id.value)
      outline.action = descriptor?.id ?? call.id.value
      outline.sentence = descriptor.map { sentence(call, descriptor: $0) } ?? StyledText([.init(.text, call.id.value)])
    case .ifBlock(let condition, let then, let otherwise):
      outline.sentence = StyledText([.init(.keyword, "If")]) + " " + words.words(condition)
      outline.branches = [OutlineStep.Branch(label: nil, steps: steps(then, prefix: sub))]
      if !otherwise.isEmpty {
        outline.branches.append(
          OutlineStep.Branch(
            label: StyledText([.init(.keyword, "Otherwise")]), steps: steps(otherwise, prefix: sub, first: starts[1])))
      }
      outline.end = "End If"
    case .repeatBlock(let count, let body):
      outline.sentence =
        StyledText([.init(.keyword, "Repeat")]) + " " + words.words(count, wanted: .number) + " times"
      outline.branches = [OutlineStep.Branch(label: nil, steps: steps(body, prefix: sub))]
      outline.end = "End Repeat"
    case .forEach(let items, let body):
      let item = StyledText([.init(.variable, "⟨\(step.name?.value ?? "item")⟩")])
      outline.sentence =
        StyledText([.init(.keyword, "Repeat with each")]) + " " + item + " in "
        + words.words(items, wanted: .list(.any))
      outline.branches = [OutlineStep.Branch(label: nil, steps: steps(body, prefix: sub))]
      outline.end = "End Repeat"
    case .menu(let prompt, let options, let defaultOption):
      outline.sentence = StyledText([.init(.keyword, "Choose from menu")]) + " " + words.words(prompt, wanted: .text)
      if let defaultOption {
        outline.sentence.append(" · default " + StyledText([.init(.value, defaultOption.value)]))
      }
      outline.branches = zip(options, starts).map { option, first in
        OutlineStep.Branch(
          label: StyledText([.init(.value, option.label.value)]),
          steps: steps(option.steps, prefix: sub, first: first))
      }
      outline.end = "End Menu"
    case .stop(let output):
      outline.sentence = output.map { "Stop and output " + words.words($0, wanted: .any) } ?? "Stop"
    case .runWorkflow(let reference, let input):
      outline.sentence = "Run workflow " + words.words(reference, wanted: .text, quoted: false)
      if let input { outline.sentence.append(" with input " + words.words(input, wanted: .any)) }
    case .set(let variable, let value):
      outline.sentence =
        "Set variable " + StyledText([.init(.value, variable.value)]) + " to "
        + (value.map { words.words($0, wanted: .any) } ?? previous)
    case .append(let variable, let value):
      outline.sentence =
        "Add " + (value.map { words.words($0, wanted: .any) } ?? previous) + " to variable "
        + StyledText([.init(.value, variable.value)])
    }
    outline.annotations = annotations(of: step, descriptor: descriptor, confirmedBy: confirmedBy)
    if let effect = builder.analysis.effect(of: step, in: workflow), let text = effect.margin {
      outline.mark = OutlineStep.Mark(
        effect: effect.unknown ? "unknown" : effect.effect.rawValue, hosts: effect.hosts, anyHost: effect.anyHost,
        text: text)
    }
    return outline
  }

  private var previous: StyledText { StyledText([.init(.variable, "⟨previous⟩")]) }

  // MARK: - Actions

  /// The intent's parameter summary with the step's values: the sentence, then ` · title value` for each
  /// trailing parameter the step gives.
  private func sentence(_ call: ActionCall, descriptor: IntentDescriptor) -> StyledText {
    var given: [String: Value] = [:]
    for (key, value) in (try? Interpreter.arguments(of: call, for: descriptor)) ?? [] { given[key] = value }
    var text = StyledText()
    for part in descriptor.summary.sentence {
      switch part {
      case .text(let words): text.append(.text, words)
      case .parameter(let key):
        guard let parameter = descriptor.parameter(key) else { continue }
        text.append(given[key].map { words.words($0, wanted: parameter.type) } ?? unset(parameter))
      }
    }
    for key in descriptor.summary.trailing {
      guard let value = given[key], let parameter = descriptor.parameter(key) else { continue }
      text.append(.text, " · \(Self.label(parameter.title)) ")
      text.append(words.words(value, wanted: parameter.type))
    }
    return text
  }

  /// A sentence parameter the step leaves out: its default, or its title as a placeholder.
  private func unset(_ parameter: ParameterDescriptor) -> StyledText {
    guard let value = parameter.defaultValue else { return StyledText([.init(.placeholder, "[\(parameter.title)]")]) }
    if let choices = parameter.choices, let match = choices.first(where: { $0.id == value.text }) {
      return StyledText([.init(.placeholder, match.title)])
    }
    if case .boolean(let bool) = value { return StyledText([.init(.placeholder, bool ? "on" : "off")]) }
    return StyledText([.init(.placeholder, ValueWords.isFreeText(parameter.type) ? "“\(value.text)”" : value.text)])
  }

  /// A parameter's title inside a sentence: "Add Tags" → "add tags", with acronyms kept ("JSON body").
  static func label(_ title: String) -> String {
    title.split(separator: " ").map { word in
      word.count > 1 && word.allSatisfy(\.isUppercase) ? String(word) : word.lowercased()
    }.joined(separator: " ")
  }

  // MARK: - Annotations

  /// The output type as the checker knows it where the step's written values decide it (`run-shell`'s
  /// `output: lines`): computed values count as given, of a type not known.
  private func outputType(of step: Step, descriptor: IntentDescriptor) -> ValueType? {
    guard case .action(let call) = step.kind else { return descriptor.outputType }
    let known = KnownValues(call, descriptor: descriptor)
    return descriptor.outputType(
      given: Dictionary(uniqueKeysWithValues: known.unknown.map { ($0, ValueType.any) }), literals: known.literals)
  }

  private func annotations(of step: Step, descriptor: IntentDescriptor?, confirmedBy: String?)
    -> [OutlineStep.Annotation]
  {
    var notes: [OutlineStep.Annotation] = []
    if let name = step.name, !isForEach(step) {
      var text: StyledText = "→ " + StyledText([.init(.variable, "⟨\(name.value)⟩")])
      if let type = descriptor.flatMap({ outputType(of: step, descriptor: $0) }) {
        text.append(.text, " (\(type.name))")
      }
      notes.append(.init(kind: .output, text: text))
    }
    if let condition = step.when {
      notes.append(.init(kind: .when, text: "only if " + words.words(condition)))
    }
    if let condition = step.where {
      notes.append(.init(kind: .when, text: "keeps the items where " + words.words(condition.value)))
    }
    // An action that always asks is answered by the question of a confirmed block around it.
    // A step whose values may delete asks as one whose intent always asks does.
    let asks: Bool =
      if let descriptor, case .action(let call) = step.kind {
        KnownValues(call, descriptor: descriptor).asksConfirmation(descriptor)
      } else {
        false
      }
    let intentAsks = asks && confirmedBy == nil
    if step.confirm != nil || intentAsks, autoConfirm {
      notes.append(.init(kind: .unattended, text: "confirmed without asking (confirmations: auto)"))
    } else if let confirm = step.confirm {
      notes.append(
        .init(
          kind: .confirm,
          text: confirm.message.map { "asks first: " + words.words($0, wanted: .text, quoted: true) } ?? "asks first"))
    } else if intentAsks {
      notes.append(
        .init(
          kind: .confirm,
          text: descriptor?.requiresConfirmation == true ? "always asks first" : "asks first: it may delete"))
    } else if let confirmedBy, asks {
      notes.append(
        .init(kind: .confirm, text: StyledText(stringLiteral: "confirmed by the question of step \(confirmedBy)")))
    }
    if let retry = step.retry {
      notes.append(
        .init(
          kind: .retry,
          text: StyledText(
            stringLiteral: "tries up to \(retry.attempts) times, \(DurationParsing.format(retry.delay)) apart")))
    }
    if let timeout = step.timeout {
      notes.append(
        .init(
          kind: .timeout, text: StyledText(stringLiteral: "times out after \(DurationParsing.format(timeout.value))")))
    }
    if step.onError == .continue {
      notes.append(.init(kind: .onError, text: "on error, goes on without its output"))
    }
    return notes
  }

  private func isForEach(_ step: Step) -> Bool {
    if case .forEach = step.kind { return true }
    return false
  }
}
