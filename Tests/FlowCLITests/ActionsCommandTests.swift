import FlowCLI
import FlowSession
import FlowTestSupport
import Foundation
import Testing

/// Runs `flow actions …` in-process and returns its exit status and both streams.
private func runActions(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
  let console = BufferConsole()
  let context = SessionContext(console: console, environment: ["NO_COLOR": "1"], workingDirectory: "/")
  let status = await FlowCommand.main(arguments: ["actions"] + arguments, context: context)
  return (status, console.output, console.error)
}

struct ActionsCommandTests {
  @Test func listsTheCatalogue() async {
    let result = await runActions([])
    #expect(result.status == 0)
    #expect(result.error == "")
    assertGolden(result.output, named: "actions/all.txt")
  }

  @Test func showsOneActionInFull() async {
    let result = await runActions(["get-url"])
    #expect(result.status == 0)
    assertGolden(result.output, named: "actions/get-url.txt")
  }

  @Test func listAsJSONParses() async throws {
    let result = await runActions(["--json"])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let catalogs = try #require(object["catalogs"] as? [[String: Any]])
    let actions = try #require(catalogs.first?["actions"] as? [[String: Any]])
    #expect(actions.compactMap { $0["id"] as? String }.contains("get-url"))
    #expect(catalogs.first?["title"] as? String == "Basics")
  }

  @Test func detailAsJSONCarriesParametersAndOutput() async throws {
    let result = await runActions(["get-url", "--json"])
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(object["id"] as? String == "get-url")
    #expect(object["sideEffect"] as? String == "destructive")
    #expect(object["sideEffectParameters"] as? [String] == ["method"])
    let parameters = try #require(object["parameters"] as? [[String: Any]])
    #expect(parameters.compactMap { $0["key"] as? String } == ["url", "method", "headers", "json", "body", "timeout"])
    let method = try #require(parameters.first { $0["key"] as? String == "method" })
    #expect(method["default"] as? String == "get")
    #expect((method["choices"] as? [[String: Any]])?.count == 5)
    #expect((object["output"] as? [String: Any])?["type"] as? String == "Any")
    #expect(object["example"] as? String == "- get-url: https://example.com")
    // Printed by the one JSON printer that `flow run --json` uses: sorted keys, the same spacing.
    assertGolden(result.output, named: "actions/get-url.json.txt")
  }

  @Test func unknownActionSuggestsTheClosestAndExitsWithInvalid() async {
    let result = await runActions(["gte-url"])
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(result.error.hasPrefix("error: unknown action 'gte-url'\n      = help: did you mean 'get-url'?\n"))
  }

  /// A block met in a workflow (`- stop`) is not an action: say what it is, not "did you mean 'show'?".
  @Test func aBlockIsNamedAsABlock() async {
    let result = await runActions(["stop"])
    #expect(result.status == 2)
    #expect(
      result.error == """
        error: 'stop' is a block of the workflow format, not an action
              = note: Stop and Output: end the run, with this value as its result
              = help: blocks are written as steps and described in Documentation/WorkflowFormat.md; 'flow actions' lists the actions
        found 1 error

        """)
  }

  @Test func everyActionRendersWithAnExample() async throws {
    let list = await runActions(["--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [String: Any])
    let catalogs = try #require(object["catalogs"] as? [[String: Any]])
    let ids = catalogs.flatMap { ($0["actions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
    #expect(ids.count >= 23)
    for id in ids {
      let result = await runActions([id])
      #expect(result.status == 0, "flow actions \(id) failed")
      #expect(result.output.contains("Example:\n  - \(id)"), "flow actions \(id) has no example")
    }
  }
}

/// `Documentation/Actions.md` is generated; this fails when the declarations changed and it was not.
struct ActionsDocumentationTests {
  static let file = testDirectory().appendingPathComponent("../../Documentation/Actions.md").standardizedFileURL

  @Test func referenceIsUpToDate() async throws {
    let committed = try String(contentsOf: Self.file, encoding: .utf8)
    let generated = await runActions(["--markdown"]).output
    #expect(committed.hasPrefix(ActionsReference.markdownHeader))
    #expect(
      committed == generated,
      "Documentation/Actions.md is stale: run 'swift run flow actions --markdown > Documentation/Actions.md'")
  }
}
