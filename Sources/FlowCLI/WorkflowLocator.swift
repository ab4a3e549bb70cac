import FlowDiagnostics
import FlowIntents
import FlowModel
import FlowRuntime
import Foundation

/// Finds workflows by what a person types (SPEC §6): a path, or a name looked up in the library
/// (`$XDG_CONFIG_HOME/flow/workflows`) and then in `./workflows/`, with or without `.yml`.
struct WorkflowLocator: WorkflowLoading {
  let context: CLIContext
  let registry: IntentRegistry

  /// The library folder: `$XDG_CONFIG_HOME/flow/workflows`, or `~/.config/flow/workflows`.
  var libraryDirectory: URL? {
    if let config = context.environment["XDG_CONFIG_HOME"], !config.isEmpty {
      return URL(fileURLWithPath: config).appendingPathComponent("flow/workflows")
    }
    return context.environment["HOME"].map { URL(fileURLWithPath: $0).appendingPathComponent(".config/flow/workflows") }
  }

  /// Where `flow remove` keeps what it takes out of the library (and where an import that replaces a
  /// workflow keeps the old copy): `.backup/` inside the library, so backups move with it.
  var backupDirectory: URL? { libraryDirectory?.appendingPathComponent(".backup") }

  /// The library's workflows by name (what `flow run NAME` takes), sorted by name.
  var libraryWorkflows: [(name: String, url: URL)] {
    guard let library = libraryDirectory,
      let files = try? FileManager.default.contentsOfDirectory(at: library, includingPropertiesForKeys: nil)
    else { return [] }
    return files.filter { ["yml", "yaml"].contains($0.pathExtension) && !$0.lastPathComponent.hasPrefix(".") }
      .map { ($0.deletingPathExtension().lastPathComponent, $0) }
      .sorted { $0.name < $1.name }
  }

  /// The path to read for `reference`, as the person should see it; nil when nothing matches.
  func locate(_ reference: String, relativeTo directory: String? = nil) -> String? {
    let names =
      reference.hasSuffix(".yml") || reference.hasSuffix(".yaml")
      ? [reference] : [reference, reference + ".yml", reference + ".yaml"]
    var candidates: [String] = []
    if let directory { candidates += names.map { directory.isEmpty ? $0 : "\(directory)/\($0)" } }
    candidates += names
    if !reference.contains("/") {
      if let library = libraryDirectory { candidates += names.map { library.appendingPathComponent($0).path } }
      candidates += names.map { "workflows/\($0)" }
    }
    return candidates.first { path in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: context.url(for: path).path, isDirectory: &isDirectory)
        && !isDirectory.boolValue
    }
  }

  /// Reads and checks a workflow, or returns every problem found.
  func load(_ reference: String) -> (workflow: Workflow?, diagnostics: Diagnostics) {
    guard let path = locate(reference) else {
      return (
        nil,
        Diagnostics([
          Diagnostic(.error, .fileNotFound, "no workflow named '\(reference)'", file: reference)
            .help("give a path, or a name from the library or ./workflows")
        ])
      )
    }
    switch SourceReader.read(path, in: context) {
    case .success(let file): return WorkflowCheck.load(file, registry: registry)
    case .failure(let problem): return (nil, Diagnostics([problem]))
    }
  }

  /// `run-workflow`: a path relative to the running workflow's folder, or a library name.
  func load(_ reference: String, from file: SourceFile) throws -> Workflow {
    let directory = (file.path as NSString).deletingLastPathComponent
    let path = locate(reference, relativeTo: directory) ?? reference
    let (workflow, diagnostics) = load(path)
    guard let workflow, !diagnostics.hasErrors else { throw RunError(.invalid, diagnostics) }
    return workflow
  }
}
