import FlowIntents
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

@testable import FlowCLI
@testable import FlowMCPServer
@testable import FlowSession

/// What `flow mcp` lists: the library's workflows as tools (an invalid one left out, said on standard
/// error), and with `--actions` the catalogue's actions, as JSON goldens of the `tools` a client gets.
struct MCPServerToolsTests {
  static let library = testDirectory().appendingPathComponent("MCPServer/library")

  /// A home whose library holds the fixture workflows.
  static func home() throws -> (context: SessionContext, console: BufferConsole) {
    let home = try temporaryDirectory()
    let workflows = home.appendingPathComponent(".local/share/flow/workflows")
    try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: library.path) {
      try FileManager.default.copyItem(
        at: library.appendingPathComponent(name), to: workflows.appendingPathComponent(name))
    }
    let console = BufferConsole()
    let context = SessionContext(
      console: console, environment: ["HOME": home.path, "NO_COLOR": "1"], workingDirectory: home.path)
    return (context, console)
  }

  @Test func theLibraryAsTools() throws {
    let (context, console) = try Self.home()
    let tools = MCPTools(context: context, actions: false).list()
    assertGolden(
      JSON.encode(["tools": .list(tools.map(\.value))], pretty: true) + "\n", named: "mcp/tools-list.json")
    #expect(
      console.error
        == "flow mcp: 'broken' is not offered as a tool: it has 1 error ('flow validate broken' lists them)\n")
  }

  /// With `--actions`, every action follows the workflows, named by its id; a few of them as goldens.
  @Test func actionsAsTools() throws {
    let (context, _) = try Self.home()
    let tools = MCPTools(context: context, actions: true).list()
    let names = tools.compactMap { tool -> String? in
      guard case .dictionary(let fields) = tool.value, case .text(let name)? = fields["name"] else { return nil }
      return name
    }
    #expect(names.prefix(4) == ["greet", "hold", "tidy", "tidy-auto"])
    #expect(names.count == 4 + Catalogs.registry.descriptors.count)
    let chosen = ["raindrop.delete-bookmark", "raindrop.get-bookmarks", "get-url", "calculate"]
    let shown = tools.filter { tool in
      guard case .dictionary(let fields) = tool.value, case .text(let name)? = fields["name"] else { return false }
      return chosen.contains(name)
    }
    assertGolden(JSON.encode(.list(shown.map(\.value)), pretty: true) + "\n", named: "mcp/action-tools.json")
  }

  /// A workflow named like an action is the workflow: the person's own file is what the name means.
  @Test func aWorkflowShadowsTheActionOfItsName() throws {
    let (context, _) = try Self.home()
    try "flow: 1\nname: My Show\nsteps:\n  - text: mine\n".write(
      to: context.paths.workflows.appendingPathComponent("show.yml"), atomically: true, encoding: .utf8)
    let tools = MCPTools(context: context, actions: true)
    let shows = tools.list().filter { tool in
      guard case .dictionary(let fields) = tool.value else { return false }
      return fields["name"] == .text("show")
    }
    #expect(shows.count == 1)
    guard case .dictionary(let fields)? = shows.first?.value else { return }
    #expect(fields["title"] == .text("My Show"))
    guard case .workflow? = tools.find("show") else {
      Issue.record("'show' did not find the workflow")
      return
    }
    guard case .action(let descriptor)? = tools.find("raindrop.save-bookmark") else {
      Issue.record("an action is not found by its id")
      return
    }
    #expect(descriptor.id == "raindrop.save-bookmark")
    // Without --actions, an action's id names no tool.
    #expect(MCPTools(context: context, actions: false).find("raindrop.save-bookmark").map { _ in true } == nil)
  }
}

/// `flow mcp` passes on what a run reports as progress: each step's start, and the progress a step's own
/// action reports (a tool of a server the workflow calls), on one growing count.
struct MCPRunProgressTests {
  final class Sent: @unchecked Sendable {
    let lock = NSLock()
    var notifications: [String] = []
  }

  @Test func aStepsOwnProgressGoesToTheClient() {
    let sent = Sent()
    let observer = MCPRunObserver { count, words in
      sent.lock.withLock { sent.notifications.append("\(count) \(words)") }
    }
    let step = StepInfo(position: "1", label: "test.count")
    observer.record(.started(step))
    observer.record(.progress(step, ActionProgress(completed: 1, total: 3, message: "step 1")))
    observer.record(.progress(step, ActionProgress(completed: 2)))
    observer.record(.progressEnded(step))
    #expect(
      sent.notifications == ["1 step 1 'test.count'", "2 step 1 'test.count' 1/3: step 1", "3 step 1 'test.count'"])
  }
}
