import ArgumentParser
import FlowLibrary
import FlowSession
import FoundationEssentials

/// The candidates that `flow completions`' scripts ask flow for while a person presses Tab. The scripts
/// themselves are ArgumentParser's, generated from the command tree, so a new subcommand or option is
/// completed without an edit here; only values that flow alone knows come from here.
enum Completions {
  /// For a WORKFLOW argument (`run`, `validate`, `show`, `export`, `runs list`, `schedule next|run|install`):
  /// the names in the library and in `./workflows/`, as `flow run NAME` finds them, and workflow files
  /// and folders under what has been typed.
  static let workflow = CompletionKind.custom { _, _, prefix in workflows(prefix: prefix, in: SessionContext.current) }

  /// For `flow actions ACTION`: every action's id.
  static var action: CompletionKind { .list(Catalogs.registry.descriptors.map(\.id)) }

  /// For `flow remove NAME`: the names in the library.
  static let libraryWorkflow = CompletionKind.custom { _, _, prefix in
    WorkflowLocator(context: SessionContext.current).libraryWorkflows.map(\.name).filter { $0.hasPrefix(prefix) }
  }

  static func workflows(prefix: String, in context: SessionContext) -> [String] {
    // The library is the locator's, wherever it keeps it.
    var names = WorkflowLocator(context: context).libraryWorkflows.map(\.name)
    names += workflowNames(in: context.url(for: "workflows"))
    names += paths(matching: prefix, in: context)
    var seen = Set<String>()
    return names.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
  }

  /// The workflow files in a folder, by name without `.yml` or `.yaml`, as `flow run NAME` takes them.
  private static func workflowNames(in directory: URL) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { !$0.hasPrefix(".") }.compactMap { file in
      for suffix in [".yml", ".yaml"] where file.hasSuffix(suffix) { return String(file.dropLast(suffix.count)) }
      return nil
    }.sorted()
  }

  /// Workflow files and folders in the folder of a typed path (`examples/he` → `examples/hello.yml`).
  private static func paths(matching prefix: String, in context: SessionContext) -> [String] {
    let folder = prefix.contains("/") ? String(prefix[...(prefix.lastIndex(of: "/") ?? prefix.startIndex)]) : ""
    let directory = context.url(for: folder.isEmpty ? "." : folder)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return entries.filter { !$0.hasPrefix(".") }.compactMap { entry in
      var isDirectory = false
      let exists = FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(entry).path, isDirectory: &isDirectory)
      guard exists, isDirectory || entry.hasSuffix(".yml") || entry.hasSuffix(".yaml") else { return nil }
      return folder + entry + (isDirectory ? "/" : "")
    }.sorted()
  }
}
