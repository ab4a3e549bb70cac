import FlowBasics
import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSharing
import FoundationEssentials

/// What a run of a workflow is held to (issue 28): everything its card shows, as the ``CapabilitySet``
/// the layers that act check each effect against. Every way a workflow starts — `flow run` (and so the
/// scheduler, whose runs are `flow run` children) and `flow mcp` — makes one.
///
/// The set is the card's own analysis over the whole tree of workflows the run may run, so the card and
/// the run never disagree: a gap in the analysis becomes a refused step. For a workflow `flow import`
/// added, the card the person approved then is kept with its provenance record; a run that would need
/// more (the file was edited, a workflow it runs changed) asks again before step 1.
public struct RunContract: Sendable {
  /// The set, worked out when the run first acts outside itself or, for a workflow with an approved
  /// card, before step 1.
  public let card: CardContract
  public var set: CapabilitySet { card.set }
  /// The library copy's provenance record, when it holds an approved card the run goes beyond.
  private let approval: (file: URL, record: ProvenanceRecord)?

  public init(_ workflow: Workflow, check: WorkflowCheck, context: SessionContext) {
    let card = CardContract {
      CapabilityAnalysis(registry: Catalogs.registry, loader: check).analyze(workflow).contract
    }
    self.card = card
    // Records are read only in the library, as `flow show` reads them (Sharing.md).
    if workflow.embeddedName == nil, ProvenanceRecord.exists(for: context.absolutePath(workflow.file.path)),
      Presentation.isInLibrary(workflow.file.path, context),
      case let file = context.url(for: workflow.file.path),
      let record = ProvenanceRecord.read(for: file), let approved = record.approved, !card.set.isSubset(of: approved)
    {
      approval = (file, record)
    } else {
      approval = nil
    }
  }

  /// What the run may do beyond the card approved at import, in words; empty when nothing.
  public var excess: [String] {
    guard let approved = approval?.record.approved else { return [] }
    return set.excess(over: approved)
  }

  /// Before step 1, when the workflow now needs more than the card approved at import: `yes` (the
  /// person's `--yes`) approves it, else `prompter` asks the person (never `confirmations: auto`); an
  /// approval is recorded, so the next run does not ask. Throws the run's end when it is not approved.
  public func approve(_ workflow: Workflow, prompter: any Prompter, yes: Bool) async throws(RunError) {
    guard let approval else { return }
    let question =
      "'\(workflow.name)' can now do more than the card you approved when you imported it: "
      + List.and(excess) + ". Allow it?"
    if !yes {
      var request = ConfirmationRequest(kind: .alert, origin: PromptOrigin(), dialog: question, isDestructive: true)
      request.needsExplicitYes = true
      let allowed: Bool
      do {
        allowed = try await prompter.requestConfirmation(request)
      } catch {
        let kind = RunError.classify(error)
        throw RunError(
          kind,
          Diagnostic(
            .error, kind == .cancelled ? .cancelled : .inputNeeded,
            "'\(workflow.name)' can now do more than the card approved at import: " + List.and(excess),
            file: workflow.file.path
          ).help("run it at a terminal to see the card and answer, or pass --yes to allow it"))
      }
      guard allowed else {
        throw RunError(
          .cancelled, Diagnostic(.error, .cancelled, "not allowed: nothing was run", file: workflow.file.path))
      }
    }
    var record = approval.record
    record.approved = set
    try? record.write(for: approval.file)
  }

  /// The run's services, held to the set. (Where each workflow came from, the interpreter says, as it
  /// runs each: a shared library workflow run from one's own file is still shared.)
  public func hold(_ services: IntentContext) -> IntentContext { services.holding(to: card) }

  /// What one action run on its own is held to (a `flow do` phrase, a `flow mcp --actions` call): the
  /// card of a one-step workflow calling it with `values` (each `${` in them written `$${`, as the values
  /// are text, not references), so that an action alone keeps the promise it keeps in a workflow. When
  /// the check cannot take the values, the parameters are analysed as asked for, which allows what the
  /// action may do with any value: wider, never narrower.
  public static func holding(
    _ services: IntentContext, toAction id: String, values: [String: FlowValue]
  ) -> IntentContext {
    let check = WorkflowCheck(registry: Catalogs.registry, files: OneActionFiles())
    // Each attempt a file of its own: the check keeps what it made of each path.
    func workflow(_ arguments: String, _ file: String) -> Workflow? {
      let text = "flow: 1\nname: \(id)\nsteps:\n  - \(id): \(arguments)\n"
      let checked = check.check(SourceFile(path: file, bytes: Array(text.utf8)))
      return checked.diagnostics.hasErrors ? nil : checked.workflow
    }
    let given = FlowDictionary(values.keys.sorted().map { (key: $0, value: literal(values[$0] ?? .nothing)) })
    guard let workflow = workflow(JSON.encode(.dictionary(given)), "given.yml") ?? workflow("", "asked.yml") else {
      // Not even with its parameters asked for does the action check: nothing it may do is known.
      return services.holding(to: CapabilitySet())
    }
    let card = CardContract {
      CapabilityAnalysis(registry: Catalogs.registry, loader: check).analyze(workflow).contract
    }
    return services.holding(to: card)
  }

  /// `value` as a workflow writes it literally: `${` as `$${`.
  private static func literal(_ value: FlowValue) -> FlowValue {
    switch value {
    case .text(let text): .text(text.replacing("${", with: "$${"))
    case .list(let items): .list(items.map(literal))
    case .dictionary(let entries): .dictionary(FlowDictionary(entries.map { (key: $0.key, value: literal($0.value)) }))
    default: value
    }
  }
}

/// The files of a one-step workflow made in memory: none to run.
private struct OneActionFiles: WorkflowFiles {
  func locate(_ reference: String, inFolder folder: String) -> String? { nil }
  func canonicalPath(_ path: String) -> String { "/flow-action/\(path)" }
  func read(_ path: String) -> Result<SourceFile, Diagnostic> {
    .failure(Diagnostic(.error, .fileNotFound, "an action run on its own runs no workflow", file: path))
  }
}
