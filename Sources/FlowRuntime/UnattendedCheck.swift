import FlowDiagnostics
import FlowIntents
import FlowModel

/// Everything a run nobody attends (no terminal, `--no-input`, the scheduler) would have to ask, found
/// before its first step, so that it refuses with nothing done rather than fail halfway — which, under
/// cron, would repeat every night (SPEC §5).
///
/// One walk over the workflow and the workflows it runs. Steps that may not run (under `when`, in a
/// branch, a menu or a loop, after a `stop` that may end the run) are listed too, as "may": a run that
/// needs an answer only sometimes would otherwise pass every test and fail the first night it does.
public enum UnattendedCheck {
  /// The help of a confirmation nobody can answer: `--yes` for a run by hand, the file's
  /// `confirmations: auto` for a scheduled one (whose command line says no `--yes`).
  public static let yesHelp = "pass --yes, or write 'confirmations: auto' in the workflow, to confirm unattended"

  /// What answers the run has without asking.
  public struct Answers: Sendable {
    /// The inputs given (`--input`, `--input-file`, piped standard input).
    public var inputs: Set<String>
    /// Whether confirmations are answered yes: `--yes`, `confirmations: auto`, a dry run.
    public var confirmations: Bool
    /// The values of the inputs given, where known: a step whose effect an input decides
    /// (`move-to: ${input.collection}`) asks only if the value given makes it delete.
    public var values: [String: FlowValue]
    /// What this run cannot reach, by the machine access that needs it, with why: no session bus for
    /// notifications, no display for the clipboard. A person at a terminal sees such a step fail and
    /// can act; a run nobody attends would fail the same way every night, so it refuses before step 1.
    /// A list, not a dictionary: a dictionary keyed by a new type costs every unattended start a scan
    /// of the binary's protocol conformances (Performance.md).
    public var unreachable: [(kind: MachineAccess.Kind, why: String)]
    /// Whether the person answered them (`--yes`, a dry run) rather than `confirmations: auto`, which
    /// never answers what only a person may (``ConfirmationPolicy``).
    public var byPerson = true
    /// The workflow came from elsewhere (`shared:`): more takes a person.
    public var shared = false
    /// Who answers on the desktop when no terminal does (SPEC §11).
    public var desktop: Desktop = .nobody

    /// The answers of a run: `yes` from the person running it (or a dry run), else the workflow's
    /// `confirmations: auto`.
    public init(
      inputs: Set<String>, yes: Bool, workflow: Workflow, values: [String: FlowValue] = [:],
      unreachable: [(kind: MachineAccess.Kind, why: String)] = []
    ) {
      self.init(
        inputs: inputs, confirmations: yes || workflow.confirmations == .auto, values: values, unreachable: unreachable)
      byPerson = yes
      shared = workflow.shared != nil
    }

    public init(
      inputs: Set<String>, confirmations: Bool, values: [String: FlowValue] = [:],
      unreachable: [(kind: MachineAccess.Kind, why: String)] = []
    ) {
      self.inputs = inputs
      self.confirmations = confirmations
      self.values = values
      self.unreachable = unreachable
    }
  }

  /// Whether a step needing `kind` of a desktop the run cannot reach waits for the person: a
  /// notification only with buttons (which it waits on); the clipboard always, as before.
  static func waits(_ kind: MachineAccess.Kind, _ given: [String: Value]) -> Bool {
    guard kind == .showsNotifications else { return true }
    switch given["buttons"] {
    case nil, .null?: return false
    default: return true
    }
  }

  /// `flow validate`'s warnings for a session with no way to show a notification (`unreachable`, as the
  /// run finds it): each step of `workflow` (its `on-failure:` too) that shows one without waiting for a
  /// button, and is not allowed to fail, will fail at that step when run here.
  public static func desktopWarnings(
    in workflow: Workflow, unreachable: [(kind: MachineAccess.Kind, why: String)], registry: IntentRegistry
  ) -> Diagnostics {
    guard let why = unreachable.first(where: { $0.kind == .showsNotifications })?.why else { return Diagnostics() }
    var warnings = Diagnostics()
    var recent = RecentDescriptors()
    StepWalk.walk(workflow) { visit in
      guard case .action(let call) = visit.step.kind, visit.step.onError != .continue,
        let descriptor = try? recent.descriptor(for: call.id.value, in: registry),
        descriptor.machineAccess.contains(where: { $0.kind == .showsNotifications })
      else { return }
      let arguments = (try? Interpreter.arguments(of: call, for: descriptor)) ?? []
      guard !waits(.showsNotifications, Dictionary(arguments, uniquingKeysWith: { first, _ in first })) else { return }
      warnings.append(
        Diagnostic(
          .warning, .noSessionBus,
          "\(Step.describe(position: visit.position)) '\(visit.step.label)' shows a notification, and this session has no bus to show it on (\(why))",
          at: call.id.span
        )
        .note("run here (from cron, over ssh, in a container), the step fails, and the run with it")
        .help("add 'on-error: continue' to the step to go on without it, or run it in the person's desktop session"))
    }
    return warnings
  }

  /// What the person's desktop session can answer for a run that has no terminal.
  public enum Desktop: Sendable, Hashable {
    /// No desktop session (no display, or no session bus), or `--no-input`.
    case nobody
    /// A session without a dialog tool: a notification's buttons answer confirmations and choices.
    case choices
    /// A session with a dialog tool: every question is asked in a dialog.
    case everything
  }

  /// One `input-needed` error for each question nobody could answer, each with what would answer it.
  public static func check(
    _ workflow: Workflow, answers: Answers, registry: IntentRegistry, loader: WorkflowCheck
  ) -> Diagnostics {
    if answers.desktop == .everything { return Diagnostics() }
    var answers = answers
    if answers.desktop == .choices {
      // The person answers at the desktop: what only a person may confirm is theirs to confirm.
      answers.confirmations = true
      answers.byPerson = true
    }
    var walk = Walk(answers: answers, registry: registry, loader: loader)
    for input in workflow.inputs where input.defaultValue == nil && !answers.inputs.contains(input.name.value) {
      walk.report(
        Diagnostic(.error, .inputNeeded, "input '\(input.name.value)' needs a value", at: input.name.span)
          .help("pass --input \(input.name.value)=… or run at a terminal"))
    }
    walk.visit(workflow, from: nil)
    return walk.diagnostics
  }

  private struct Walk {
    let answers: Answers
    let registry: IntentRegistry
    let loader: WorkflowCheck
    var diagnostics = Diagnostics()
    /// Files walked already: a workflow run twice, or by itself, is listed once.
    var seen: Set<String> = []

    init(answers: Answers, registry: IntentRegistry, loader: WorkflowCheck) {
      self.answers = answers
      self.registry = registry
      self.loader = loader
    }

    mutating func report(_ diagnostic: Diagnostic) {
      diagnostics.append(diagnostic)
    }

    /// The questions of `workflow`'s steps; `caller` is the `run-workflow` value that runs it.
    mutating func visit(_ workflow: Workflow, from caller: (SourceSpan, certain: Bool)?) {
      guard seen.insert(workflow.identity).inserted else { return }
      // The top workflow's inputs are known before step 1 (given, or their literal defaults); a nested
      // workflow's come from its caller's step, so they count as computed.
      var inputs: [String: FlowValue] = [:]
      if caller == nil {
        for input in workflow.inputs {
          if let value = answers.values[input.name.value] ?? input.defaultValue.flatMap(KnownValues.literal) {
            inputs[input.name.value] = value
          }
        }
      }
      var visits: [StepWalk.Visit] = []
      StepWalk.walk(workflow, onFailure: caller == nil) { visits.append($0) }
      for visit in visits {
        let certain = visit.certain && caller?.certain != false
        var ask = Asker(visit: visit, certain: certain, caller: caller?.0)
        if let confirmation = visit.step.confirm, !answers.confirmations {
          ask.needs(
            "a confirmation" + (confirmation.message.map { ": \($0.asWritten)" } ?? ""), at: confirmation.span,
            help: UnattendedCheck.yesHelp)
        }
        switch visit.step.kind {
        case .action(let call):
          guard let descriptor = try? registry.descriptor(for: call.id.value) else { break }
          check(call, descriptor, visit, inputs: inputs, &ask)
        case .menu(let prompt, _, let defaultOption):
          if defaultOption == nil, answers.desktop == .nobody {
            ask.needs(
              "a choice" + Self.question(prompt), at: prompt.span,
              help: "give the menu a 'default:' for unattended runs, or run at a terminal")
          }
        case .runWorkflow(let reference, let input):
          let name = visit.step.literalWorkflowReference.map { "'\($0)'" } ?? "the workflow it runs"
          for (input, span) in Self.asked(in: input) {
            ask.needs(
              "a value for \(input.map { "input '\($0)' of \(name)" } ?? "the input of \(name)") (it is 'ask')",
              at: span,
              help: "write the value under 'input:', or take it from an input: '${input.NAME}' with --input")
          }
          if let literal = visit.step.literalWorkflowReference, let child = loader.child(literal, of: workflow) {
            self.visit(child, from: (reference.span, certain))
          }
        case .ifBlock, .repeatBlock, .forEach, .stop, .set, .append:
          break
        }
        diagnostics.append(contentsOf: ask.diagnostics)
      }
    }

    /// An action's questions: a confirmation it always asks, what its `perform()` asks, `ask` values, and
    /// required parameters the step leaves out.
    private func check(
      _ call: ActionCall, _ descriptor: IntentDescriptor, _ visit: StepWalk.Visit, inputs: [String: FlowValue],
      _ ask: inout Asker
    ) {
      // A block the person confirmed answers its actions' own confirmations (one question for the lot).
      // A step its values make destructive asks as one that always asks does; a deciding value computed
      // at run time could be the one that deletes, so it counts as asking.
      let known = KnownValues(call, descriptor: descriptor, inputs: inputs)
      if known.asksConfirmation(descriptor), !answers.confirmations, !visit.confirmedBlock {
        let why =
          if descriptor.requiresConfirmation {
            "it always asks before it runs"
          } else if let key = known.unknown.intersection(descriptor.sideEffectParameters).sorted().first {
            "'\(key)' is known only at run time and may make it delete, so it asks before it runs"
          } else {
            "it deletes with "
              + descriptor.sideEffectParameters.sorted().compactMap { key in
                known.literals[key].map { "\(key): \($0.text)" }
              }.joined(separator: ", ") + ", so it asks before it runs"
          }
        ask.needs("a confirmation (\(why))", at: call.id.span, help: UnattendedCheck.yesHelp)
      }
      // `confirmations: auto` answers for nobody, but never what only a person may: deleting for good,
      // and in a shared file replacing a file or running a command.
      let kinds = descriptor.machineAccess(for: known.literals, unknown: known.unknown).map(\.kind)
      if known.asksConfirmation(descriptor), answers.confirmations, !answers.byPerson,
        ConfirmationPolicy.needsPerson(kinds, shared: answers.shared)
      {
        let what =
          kinds.contains(.deletesFiles)
          ? "it deletes files for good"
          : "it \(kinds.contains(.replacesFiles) ? "replaces files" : "runs a command") in a file that came from elsewhere"
        ask.needs(
          "a person's confirmation (\(what), which 'confirmations: auto' never confirms)", at: call.id.span,
          help: "pass --yes to confirm it yourself, or run it at a terminal")
      }
      let arguments = (try? Interpreter.arguments(of: call, for: descriptor)) ?? []
      let given = Dictionary(arguments, uniquingKeysWith: { first, _ in first })
      // A step allowed to fail (`on-error: continue`) may meet a missing desktop: it goes on without it.
      // A notification that waits for no button asks nothing: without a bus it fails at its step, where
      // `on-error:` and `on-failure:` hear of it, rather than stopping the run as a question would.
      if visit.step.onError != .continue {
        for (kind, why) in answers.unreachable
        where descriptor.machineAccess.contains(where: { $0.kind == kind }) && UnattendedCheck.waits(kind, given) {
          ask.needs(
            "\(Self.session(for: kind)), and this run has none (\(why))", at: call.id.span,
            help: "run it in the person's desktop session, or add 'on-error: continue' to the step to go on without it")
        }
      }
      if descriptor.prompts.contains(.confirmation), !answers.confirmations {
        ask.needs(
          "a confirmation" + Self.question(descriptor.primaryParameter, given), at: call.id.span,
          help: UnattendedCheck.yesHelp)
      }
      if descriptor.prompts.contains(.value) {
        ask.needs(
          "an answer" + Self.question(descriptor.primaryParameter, given), at: call.id.span,
          help: "take the value from an input instead ('${input.NAME}'), and pass --input NAME=…")
      }
      if descriptor.prompts.contains(.choice), answers.desktop == .nobody {
        ask.needs(
          "a choice" + Self.question(descriptor.parameter("prompt"), given), at: call.id.span, help: Self.terminal)
      }
      for parameter in descriptor.parameters {
        switch given[parameter.key] {
        case .ask(let span)?:
          ask.needs(
            "a value for '\(parameter.key)' (it is 'ask')", at: span,
            help: "write the value in the step, or take it from an input: '${input.\(parameter.key)}' with --input")
        case nil, .null?:
          if parameter.isRequired {
            ask.needs(
              "a value for '\(parameter.key)', which the step does not give", at: call.id.span,
              help: "give '\(parameter.key)' a value in the step")
          }
        default:
          break
        }
      }
    }

    /// The inputs a `run-workflow` step leaves to be asked (`input: ask`, or `name: ask` under it), by
    /// name where it names them.
    static func asked(in input: Value?) -> [(name: String?, span: SourceSpan)] {
      switch input {
      case .ask(let span)?:
        return [(nil, span)]
      case .dictionary(let entries, _)?:
        return entries.compactMap { entry in
          if case .ask(let span) = entry.value { return (entry.key.value, span) }
          return nil
        }
      default:
        return []
      }
    }

    static let terminal = "run at a terminal to choose"

    /// What a kind of machine access needs of the session, for the unattended check.
    static func session(for kind: MachineAccess.Kind) -> String {
      switch kind {
      case .showsNotifications: "a desktop session's bus to show a notification"
      case .readsClipboard, .writesClipboard: "a graphical session for the clipboard"
      default: "what '\(kind.rawValue)' needs"
      }
    }

    /// ": How many cups?" from the parameter that holds the question, when it is written out.
    static func question(_ parameter: ParameterDescriptor?, _ given: [String: Value]) -> String {
      guard let parameter, let value = given[parameter.key] else { return "" }
      return question(value)
    }

    static func question(_ value: Value) -> String {
      guard case .text(let template) = value else { return "" }
      // As written, references and all: the run has not computed it yet.
      return ": " + template.asWritten
    }
  }

  /// Words one step's questions.
  private struct Asker {
    let visit: StepWalk.Visit
    let certain: Bool
    let caller: SourceSpan?
    var diagnostics: [Diagnostic] = []

    init(visit: StepWalk.Visit, certain: Bool, caller: SourceSpan?) {
      self.visit = visit
      self.certain = certain
      self.caller = caller
    }

    mutating func needs(_ what: String, at span: SourceSpan, help: String) {
      let step = "\(Step.describe(position: visit.position)) '\(visit.step.label)'"
      var diagnostic = Diagnostic(
        .error, .inputNeeded, certain ? "\(step) needs \(what)" : "\(step) may need \(what)", at: span
      )
      if let caller { diagnostic = diagnostic.note("this workflow is run from here", at: caller) }
      if !certain { diagnostic = diagnostic.note("it may not run, but if it does, nobody can answer") }
      diagnostics.append(diagnostic.help(help))
    }
  }
}
