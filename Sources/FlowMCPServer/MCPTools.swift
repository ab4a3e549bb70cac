import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowMCP
import FlowPresentation
import FlowRuntime
import FlowSession
import FoundationEssentials
import Synchronization

/// The tools `flow mcp` offers: each workflow of the library, by its library name (what `flow run NAME`
/// takes), and with `--actions` each action of the catalogue, by its id.
///
/// Read afresh for every `tools/list` and `tools/call`, so a workflow added to the library, changed or
/// removed is what the next request sees, as it is for `flow list` and `flow run`. A call finds its file
/// by name and checks that file alone; a listing re-checks only the workflows whose files (or the files
/// of the workflows they run) changed since the last (``ToolDescriptions``).
public struct MCPTools: Sendable {
  public let context: SessionContext
  public let actions: Bool
  private let described = ToolDescriptions()

  public init(context: SessionContext, actions: Bool) {
    self.context = context
    self.actions = actions
  }

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
    // One check for what changed: a workflow that several others run is read once.
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let analysis = CapabilityAnalysis(registry: Catalogs.registry, loader: check)
    var tools: [Tool] = []
    var names: Set<String> = []
    let files = locator.libraryFiles
    described.keep(Set(files.map(\.path)))
    for (name, path) in files {
      if let value = described.unchanged(path) {
        tools.append(Tool(target: .workflow(path), value: value))
        names.insert(name)
        continue
      }
      // Before the file is read: a change made while it is checked is seen by the next listing.
      let stamp = FileStamp(path: path)
      let (workflow, checked) = locator.check(path, with: check)
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
      if let stamp { described.store(value, for: path, stamp: stamp, reading: check.files(of: workflow)) }
      tools.append(Tool(target: .workflow(path), value: value))
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
    if let path = WorkflowLocator(context: context).libraryFile(named: name) { return .workflow(path) }
    guard actions, let descriptor = try? Catalogs.registry.descriptor(for: name), descriptor.id == name else {
      return nil
    }
    return .action(descriptor)
  }

  /// The names of every tool, for a did-you-mean when a call names none of them.
  public func names() -> [String] {
    WorkflowLocator(context: context).libraryFiles.map(\.name)
      + (actions ? Catalogs.registry.descriptors.map(\.id) : [])
  }
}

/// The tools of library workflows as last described, each with the stamps (``FileStamp``) of the files
/// its check read when it was described: its own, and those of the workflows it runs. One that matches
/// them all is offered again without reading anything; only a workflow that checked without errors is
/// kept, so a broken one is checked, and reported, at every listing. A stat(2) per file is the whole cost
/// of an unchanged library (Performance.md has the figures): no watch (inotify) is needed for that.
final class ToolDescriptions: Sendable {
  private struct Entry {
    var value: FlowValue
    /// The file's own stamp, and those of the other files its check read.
    var stamps: [(path: String, stamp: FileStamp)]
  }
  private let entries = Mutex<[String: Entry]>([:])

  /// The tool described for the workflow at `path`, when no file its check read has changed since.
  func unchanged(_ path: String) -> FlowValue? {
    guard let entry = entries.withLock({ $0[path] }) else { return nil }
    for (file, stamp) in entry.stamps where FileStamp(path: file) != stamp { return nil }
    return entry.value
  }

  /// Keeps `value` for the workflow at `path`, whose file had `stamp` before it was read, and whose
  /// check read `reading` (canonical paths, its own among them).
  func store(_ value: FlowValue, for path: String, stamp: FileStamp, reading: [String]) {
    let canonical = FileSystemPath.resolved(path)
    var stamps = [(path: path, stamp: stamp)]
    for file in reading where file != canonical {
      guard let other = FileStamp(path: file) else { return }
      stamps.append((file, other))
    }
    entries.withLock { $0[path] = Entry(value: value, stamps: stamps) }
  }

  /// Forgets the workflows no longer in the library.
  func keep(_ paths: Set<String>) {
    entries.withLock { entries in
      for path in entries.keys where !paths.contains(path) { entries[path] = nil }
    }
  }
}
