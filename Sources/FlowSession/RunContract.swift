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
}
