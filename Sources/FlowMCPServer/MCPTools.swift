import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import FlowPresentation
import FlowRuntime
import FlowSession
import Foundation

/// The tools `flow mcp` offers: each workflow of the library, by its library name (what `flow run NAME`
/// takes), and with `--actions` each action of the catalogue, by its id.
///
/// Read afresh for every `tools/list` and `tools/call`, so a workflow added to the library, changed or
/// removed is what the next request sees, as it is for `flow list` and `flow run`.
public struct MCPTools: Sendable {
  public let context: SessionContext
  public let actions: Bool

  public enum Target {
    /// A library workflow at this path.
    case workflow(String)
    case action(IntentDescriptor)
  }

  public struct Tool {
    var target: Target
    /// The protocol's `Tool` object.
    var value: FlowValue
  }

  /// Every tool, workflows (by name) first, then actions. A library workflow that does not check is
  /// left out, with a line on standard error saying so; an action whose id a workflow's name takes is
  /// left out too, since the person's own workflow is what a name means to them.
  public func list() -> [Tool] {
    let locator = WorkflowLocator(context: context)
    // One check for the whole library: a workflow that several others run is read once.
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let analysis = CapabilityAnalysis(registry: Catalogs.registry, loader: check)
    var tools: [Tool] = []
    var names: Set<String> = []
    for (name, url) in locator.libraryWorkflows {
      let (workflow, checked) = locator.check(url.path, with: check)
      // What would stop its run stops its offer: a server it names that is not configured here too.
      let diagnostics = checked.stoppingRun
      guard let workflow, !diagnostics.hasErrors else {
        context.console.write(
          "flow mcp: '\(name)' is not offered as a tool: it has \(max(1, diagnostics.errorCount)) "
            + "error\(diagnostics.errorCount == 1 ? "" : "s") ('flow validate \(name)' lists them)\n",
          to: .error)
        continue
      }
      let value = ToolDescription.tool(
        named: name, workflow: workflow, check: check, analysis: analysis, registry: Catalogs.registry)
      tools.append(Tool(target: .workflow(url.path), value: value))
      names.insert(name)
    }
    if actions {
      for descriptor in Catalogs.registry.descriptors where !names.contains(descriptor.id) {
        let value = ToolDescription.tool(for: descriptor)
        tools.append(Tool(target: .action(descriptor), value: value))
      }
    }
    return tools
  }

  /// The tool called `name`: a library workflow by name, else (with `--actions`) an action by id; nil
  /// for a name that is neither. Found without checking the library.
  public func find(_ name: String) -> Target? {
    if let entry = WorkflowLocator(context: context).libraryWorkflows.first(where: { $0.name == name }) {
      return .workflow(entry.url.path)
    }
    guard actions, let descriptor = try? Catalogs.registry.descriptor(for: name), descriptor.id == name else {
      return nil
    }
    return .action(descriptor)
  }

  /// The names of every tool, for a did-you-mean when a call names none of them.
  public func names() -> [String] {
    WorkflowLocator(context: context).libraryWorkflows.map(\.name)
      + (actions ? Catalogs.registry.descriptors.map(\.id) : [])
  }
}
