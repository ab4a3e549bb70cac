import FlowIntents
import FlowPresentation
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// A workflow as an MCP tool (`flow mcp`): the schema of its inputs and result, and the hints the
/// capability analysis gives.
struct ToolDescriptionTests {
  func tool(_ yaml: String, others: [String: String] = [:]) throws -> FlowValue {
    let (workflow, check) = try checked(yaml, others: others)
    return ToolDescription.tool(
      named: "test", workflow: workflow, check: check,
      analysis: CapabilityAnalysis(registry: registry, loader: check), registry: registry)
  }

  func annotations(_ yaml: String, others: [String: String] = [:]) throws -> String {
    guard case .dictionary(let tool) = try tool(yaml, others: others), let annotations = tool["annotations"] else {
      Issue.record("no annotations")
      return ""
    }
    return JSON.encode(annotations)
  }

  @Test func aWorkflowThatOnlyReadsIsReadOnlyAndClosed() throws {
    #expect(
      try annotations("flow: 1\nname: Sum\nsteps:\n  - calculate: 1 + 2\n")
        == #"{"title":"Sum","readOnlyHint":true,"openWorldHint":false}"#)
  }

  @Test func savingABookmarkChangesWithoutDeletingAndContactsRaindrop() throws {
    #expect(
      try annotations("flow: 1\nname: Save\nsteps:\n  - save-bookmark: https://swift.org\n")
        == #"{"title":"Save","readOnlyHint":false,"destructiveHint":false,"openWorldHint":true}"#)
  }

  @Test func deletingIsDestructive() throws {
    let yaml = """
      flow: 1
      name: Clear
      steps:
        - get-bookmarks
        - for-each: ${previous}
          do:
            - delete-bookmark: ${item}
      """
    #expect(
      try annotations(yaml) == #"{"title":"Clear","readOnlyHint":false,"destructiveHint":true,"openWorldHint":true}"#)
  }

  @Test func aLiteralURLIsAHostAndAGetChangesNothing() throws {
    #expect(
      try annotations("flow: 1\nname: Fetch\nsteps:\n  - get-url: https://example.com/feed\n")
        == #"{"title":"Fetch","readOnlyHint":true,"openWorldHint":true}"#)
  }

  /// What a nested workflow does counts; one named at run time could do anything.
  @Test func nestedWorkflowsCountAndComputedOnesAreTheWorstCase() throws {
    let child = "flow: 1\nname: Child\nsteps:\n  - save-bookmark: https://swift.org\n"
    #expect(
      try annotations("flow: 1\nname: Parent\nsteps:\n  - run-workflow: child.yml\n", others: ["child.yml": child])
        == #"{"title":"Parent","readOnlyHint":false,"destructiveHint":false,"openWorldHint":true}"#)
    let computed = """
      flow: 1
      name: Any
      input:
        which: text
      steps:
        - run-workflow: ${input.which}
      """
    #expect(
      try annotations(computed) == #"{"title":"Any","readOnlyHint":false,"destructiveHint":true,"openWorldHint":true}"#)
  }

  /// What steps do to the machine counts: reading files changes nothing, running a command or trashing
  /// files is destructive (the card's red), a notification changes without destroying. Intent tools
  /// (`--actions`) are hinted the same way.
  @Test func machineAccessMakesTheHints() throws {
    let machine = MachineAccessTests()
    func annotations(_ steps: String) throws -> String {
      let yaml = "flow: 1\nname: M\nsteps:\n" + steps
      let check = WorkflowCheck(registry: machine.machineRegistry, files: MemoryFiles(files: ["test.yml": yaml]))
      let workflow = try #require(check.check(path: "test.yml").workflow)
      let tool = ToolDescription.tool(
        named: "m", workflow: workflow, check: check,
        analysis: CapabilityAnalysis(registry: machine.machineRegistry, loader: check),
        registry: machine.machineRegistry)
      guard case .dictionary(let fields) = tool, let annotations = fields["annotations"] else { return "" }
      return JSON.encode(annotations)
    }
    #expect(
      try annotations("  - read-thing: ~/notes.md\n") == #"{"title":"M","readOnlyHint":true,"openWorldHint":false}"#)
    #expect(
      try annotations("  - ping-thing: hello\n")
        == #"{"title":"M","readOnlyHint":false,"destructiveHint":false,"openWorldHint":false}"#)
    #expect(
      try annotations("  - run-thing:\n      script: ls\n")
        == #"{"title":"M","readOnlyHint":false,"destructiveHint":true,"openWorldHint":false}"#)
    #expect(
      try annotations("  - trash-thing: [a.tmp]\n")
        == #"{"title":"M","readOnlyHint":false,"destructiveHint":true,"openWorldHint":false}"#)
    let read = try machine.machineRegistry.descriptor(for: "read-thing")
    let run = try machine.machineRegistry.descriptor(for: "run-thing")
    guard case .dictionary(let readTool) = ToolDescription.tool(for: read),
      case .dictionary(let runTool) = ToolDescription.tool(for: run)
    else { return }
    #expect(
      readTool["annotations"].map { JSON.encode($0) }
        == #"{"title":"Read Thing","readOnlyHint":true,"openWorldHint":false}"#)
    #expect(
      runTool["annotations"].map { JSON.encode($0) }
        == #"{"title":"Run Thing","readOnlyHint":false,"destructiveHint":true,"openWorldHint":false}"#)
  }

  /// Inputs: types, prompts as descriptions, defaults, lists, secrets; required when without a default;
  /// the result type as the output schema.
  @Test func inputsAndResultMakeTheSchemas() throws {
    let yaml = """
      flow: 1
      name: Everything
      description: Takes one of each.
      input:
        page:
          type: url
          prompt: Which page?
        count:
          type: integer
          default: 3
        ratio: number
        tags:
          type: "[text]"
          default: [inbox]
        when: date
        token:
          type: text
          secret: true
        anything:
      steps:
        - count: ${input.tags}
      """
    assertGolden(JSON.encode(try tool(yaml), pretty: true) + "\n", named: "tool-inputs.json")
  }

  /// An entity result is described by its properties, as flow encodes it.
  @Test func anEntityResultIsAnObjectOfItsProperties() throws {
    let yaml = "flow: 1\nname: Save\nsteps:\n  - save-bookmark: https://swift.org\n"
    guard case .dictionary(let tool) = try tool(yaml), case .dictionary(let output)? = tool["outputSchema"] else {
      Issue.record("no output schema")
      return
    }
    assertGolden(JSON.encode(.dictionary(output), pretty: true) + "\n", named: "tool-output-bookmark.json")
  }

  /// A workflow whose steps end without a value has no output schema.
  @Test func noResultNoOutputSchema() throws {
    guard case .dictionary(let tool) = try tool("flow: 1\nname: Quiet\nsteps:\n  - comment: nothing\n") else {
      Issue.record("not an object")
      return
    }
    #expect(tool["outputSchema"] == nil)
  }
}

/// An MCP server's tool that may reach beyond the server (`openWorldHint`, true when absent) makes a
/// workflow calling it open-world for `flow mcp` too, and the card says so in the server's words.
struct OpenWorldToolTests {
  /// One configured server's tools, as ServerCatalogs makes them from a cache: `fetch` open-world,
  /// `sum` closed.
  struct Server: ExternalCatalogSource {
    func catalogs() -> [ExternalCatalog] {
      let descriptors = [("fetch", NetworkAccess.undeclaredHosts(besides: [])), ("sum", .none)].map { name, network in
        IntentDescriptor(
          ExternalAction(
            namespace: "tools", shortID: name, catalogTitle: "MCP server 'tools' (tools-server)", title: name,
            description: "", parameters: [], outputType: .text, sideEffect: .readOnly, networkAccess: network,
            effectClaimedBy: "the server 'tools'")
        ) { _, _ in IntentOutput(value: "") }
      }
      return [ExternalCatalog(title: "MCP server 'tools' (tools-server)", namespace: "tools", descriptors: descriptors)]
    }

    func descriptor(namespace: String, name: String, id: String) throws(IntentLookupError) -> IntentDescriptor {
      guard namespace == "tools" else {
        throw IntentLookupError(kind: .unknownServer, id: id, message: "no server", help: nil, candidates: [])
      }
      guard let found = catalogs()[0].descriptors.first(where: { $0.shortID == name }) else {
        throw IntentLookupError(kind: .unknown, id: id, message: "no tool", help: nil, candidates: [])
      }
      return found
    }

    func command(ofServer namespace: String) -> String? { namespace == "tools" ? "tools-server" : nil }
  }

  let servers = registry.adding(Server())

  func analysed(_ yaml: String) throws -> (annotations: String, lines: [String], capabilities: Capabilities) {
    let check = WorkflowCheck(registry: servers, files: MemoryFiles(files: ["test.yml": yaml]))
    let (loaded, diagnostics) = check.check(path: "test.yml")
    #expect(!diagnostics.hasErrors)
    let workflow = try #require(loaded)
    let analysis = CapabilityAnalysis(registry: servers, loader: check)
    let tool = ToolDescription.tool(
      named: "test", workflow: workflow, check: check, analysis: analysis, registry: servers)
    guard case .dictionary(let fields) = tool else { throw POSIXError(.EINVAL) }
    let annotations = try #require(fields["annotations"])
    let capabilities = analysis.analyze(workflow)
    return (
      JSON.encode(annotations), CapabilityLines.lines(capabilities, shared: true).map { "\($0.tone) \($0.text)" },
      capabilities
    )
  }

  @Test func anOpenWorldToolMakesTheWorkflowOpenWorld() throws {
    let open = try analysed("flow: 1\nname: Fetch\nsteps:\n  - tools.fetch\n")
    #expect(open.annotations == #"{"title":"Fetch","readOnlyHint":true,"openWorldHint":true}"#)
    #expect(
      open.lines.contains("changes may contact other hosts, according to the server 'tools': tools.fetch (step 1)"))
    let closed = try analysed("flow: 1\nname: Sum\nsteps:\n  - tools.sum\n")
    #expect(closed.annotations == #"{"title":"Sum","readOnlyHint":true,"openWorldHint":false}"#)
    #expect(!closed.lines.contains { $0.contains("other hosts") })
    #expect(closed.lines.contains { $0.contains("uses MCP server tools, which here starts tools-server (step 1)") })
  }

  /// A server not configured here is listed as such, in red on a shared file's card, and its tool is
  /// only warned about by the check.
  @Test func aServerNotConfiguredHereIsListed() throws {
    let result = try analysed("flow: 1\nname: Notes\nsteps:\n  - tools.sum\n  - notes.add: x\n")
    #expect(result.capabilities.servers.map(\.name) == ["tools", "notes"])
    #expect(result.capabilities.servers.map(\.command) == ["tools-server", nil])
    #expect(result.lines.contains { $0.hasPrefix("alarm uses MCP server notes, which is not configured here") })
  }
}
