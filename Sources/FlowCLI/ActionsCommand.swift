import ArgumentParser
import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowSession

/// `flow actions [ACTION]`: the catalogue, or one action's parameters, output, summary and an example.
struct ActionsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "actions",
    abstract: "List the actions workflow steps can use, or show one in full.",
    discussion: """
      Without an action, lists every action by catalogue. With one (such as 'get-url' or \
      'raindrop.save-bookmark'; the catalogue may be left out when the name is unique), shows its \
      parameters with their types, defaults, ranges and choices, its output, its parameter summary and \
      an example step.
      """
  )

  @Argument(help: "An action id, such as 'get-url'.", completion: Completions.action)
  var action: String?

  @Flag(help: "Print JSON on standard output.")
  var json = false

  @Flag(help: "Print the Markdown reference of every action (Documentation/Actions.md).")
  var markdown = false

  func run() async throws {
    let context = SessionContext.current
    let registry = Catalogs.registry
    do {
      if markdown {
        context.print(TerminalSafe.lines(ActionsReference.markdown(registry).trimmingSuffix()))
      } else if let action, !action.contains("."),
        let group = registry.groups.first(where: { $0.namespace == action })
      {
        // `flow actions time`: one catalogue (a server's tools), as the full list shows it.
        let command = registry.server(of: "\(action).?")?.command
        context.print(Self.shown(ActionsReference.list(group, command: command).trimmingSuffix()))
      } else if let action {
        let descriptor = try registry.descriptor(for: action)
        if json {
          try context.printJSON(JSONValue(ActionsReference.detailJSON(descriptor)))
        } else {
          context.print(Self.shown(ActionsReference.detail(descriptor).trimmingSuffix()))
        }
      } else if json {
        try context.printJSON(JSONValue(ActionsReference.listJSON(registry)))
      } else {
        context.print(Self.shown(ActionsReference.list(registry).trimmingSuffix()))
      }
    } catch let error as IntentLookupError {
      let block = error.kind == .unknown ? Self.block(named: error.id, code: error.code) : nil
      context.report(Diagnostics([block ?? error.diagnostic()]))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
  }

  /// The text as a terminal may show it: an MCP server's tool names, descriptions and schemas are a
  /// stranger's text, so control characters become visible, bidirectional overrides are neutralised
  /// (TerminalSafe, as for a workflow's text) and a line longer than ``lineLimit`` characters is cut.
  static func shown(_ text: String) -> String {
    TerminalSafe.lines(text).split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.count <= lineLimit ? String(line) : line.prefix(lineLimit - 1) + "…"
    }.joined(separator: "\n")
  }

  static let lineLimit = 1000

  /// `flow actions stop`: a block is looked up as an action by people who met it in a workflow; say what
  /// it is rather than suggest the nearest action ('show').
  private static func block(named name: String, code: DiagnosticCode) -> Diagnostic? {
    guard let block = WorkflowFormat.blocks.first(where: { $0.keyword == name }) else { return nil }
    return Diagnostic(.error, code, "'\(name)' is a block of the workflow format, not an action", file: nil)
      .note(block.summary)
      .help(
        "blocks are written as steps and described in Documentation/WorkflowFormat.md; 'flow actions' lists the actions"
      )
  }
}

extension String {
  /// Without the final line break: `SessionContext.print` adds one.
  fileprivate func trimmingSuffix() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
