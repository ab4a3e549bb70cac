import FlowDiagnostics
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// Asks the check for nested workflows, counting how often each reference is asked for.
final class CountingLoader: WorkflowLoading, @unchecked Sendable {
  let check: WorkflowCheck
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  init(_ check: WorkflowCheck) { self.check = check }

  var loads: [String: Int] { lock.withLock { counts } }

  func load(_ reference: String, from parent: Workflow) throws(WorkflowLoadFailure) -> Workflow {
    lock.withLock { counts[reference, default: 0] += 1 }
    return try check.load(reference, from: parent)
  }
}

/// The workflows a workflow runs, in the outline and the card (issue 16): each analysed once however
/// many steps run it, and every one's steps shown.
struct NestedWorkflowTests {
  static let child = """
    flow: 1
    name: Child
    steps:
      - text: hello
      - open-url: https://example.com/child
    """

  /// `count` steps that each run `child.yml`.
  static func runs(_ count: Int, confirmations: String = "ask") -> String {
    "flow: 1\nname: Runner\nconfirmations: \(confirmations)\nsteps:\n"
      + String(repeating: "  - run-workflow: child.yml\n", count: count)
  }

  func build(_ yaml: String, others: [String: String]) throws -> (Outline, OutlineBuilder, CountingLoader) {
    let (workflow, check) = try checked(yaml, others: others)
    let loader = CountingLoader(check)
    let builder = OutlineBuilder(registry: registry, loader: loader)
    let outline = builder.outline(of: workflow, provenance: Provenance(), now: Date(timeIntervalSince1970: 0))
    return (outline, builder, loader)
  }

  /// 300 steps running one workflow: it is looked up once and walked once, not 300 (or 600) times;
  /// every step still shows what it does in the margin. Counted, not timed.
  @Test func eachWorkflowThatRunsIsAnalysedOnce() throws {
    let (outline, builder, loader) = try build(Self.runs(300), others: ["child.yml": Self.child])
    #expect(loader.loads == ["child.yml": 1])
    #expect(builder.analysis.walks(of: "child.yml") == 1)
    #expect(builder.analysis.walks(of: "test.yml") == 1)
    #expect(outline.steps.count == 300)
    // Whatever the child's effect is worded as, every step that runs it shows it.
    let marks = Set(outline.steps.map { $0.mark?.text })
    #expect(marks.count == 1 && marks.first! != nil, "\(marks)")
    #expect(outline.capabilities.workflows.count == 300)
    #expect(outline.capabilities.otherChanges.count == 1)
  }

  /// A workflow run again inside a confirmed block still counts as deleting there: what it does is known
  /// from its first walk rather than forgotten because it was walked already.
  @Test func aWorkflowRunAgainStillDeletesWhereItRunsAgain() throws {
    let deleting = """
      flow: 1
      name: Deleting
      steps:
        - get-bookmarks
        - for-each: ${previous}
          do:
            - delete-bookmark: ${item}
      """
    let yaml = """
      flow: 1
      confirmations: auto
      steps:
        - run-workflow: deleting.yml
        - if: ${previous} is empty
          confirm: Run it again?
          then:
            - run-workflow: deleting.yml
      """
    let (outline, builder, _) = try build(yaml, others: ["deleting.yml": deleting])
    #expect(builder.analysis.walks(of: "deleting.yml") == 1)
    let unattended = outline.capabilities.unattended.map { "\($0.step.position) \($0.deletes)" }
    #expect(unattended.contains("2 true"), "\(unattended)")
  }

  /// Every workflow that will run is in the outline once, with its steps, and on the card's Actions.
  @Test func theOutlineAndTheCardHaveEveryWorkflowThatRuns() throws {
    let (outline, _, _) = try build(
      Self.runs(3),
      others: [
        "child.yml": Self.child.replacingOccurrences(
          of: "  - text: hello\n", with: "  - text: hello\n  - run-workflow: grandchild.yml\n"),
        "grandchild.yml": "flow: 1\nname: Grandchild\nsteps:\n  - show: deep\n  - show: deeper\n",
      ])
    #expect(outline.workflows.map(\.name) == ["Child", "Grandchild"])
    #expect(outline.workflows.map(\.file) == ["child.yml", "grandchild.yml"])
    #expect(outline.workflows.first?.steps.map(\.position) == ["1", "2", "3"])
    #expect(outline.workflows.last?.steps.count == 2)
    let card = PermissionCard(width: 100).render(outline, source: "test.yml")
    assertGolden(card, named: "card-nested-actions.txt")
  }
}
