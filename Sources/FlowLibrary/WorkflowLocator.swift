import FlowDiagnostics
import FlowIntents
import FlowLibrary
import FlowModel
import FlowRuntime
import FoundationEssentials
import Glibc

/// Finds workflows by what a person types (SPEC §6): a path, or a name looked up in the library
/// (`$XDG_DATA_HOME/flow/workflows`, see ``FlowPaths/workflows``) and then in `./workflows/`, with or
/// without `.yml`. The same lookup serves `flow run`, `flow validate` and `run-workflow` (see
/// ``WorkflowFiles``).
public struct WorkflowLocator: WorkflowFiles {
  /// Where relative paths start.
  public let workingDirectory: String
  /// Where flow keeps its files: the library is ``FlowPaths/workflows``.
  public let paths: FlowPaths

  public init(workingDirectory: String, paths: FlowPaths) {
    self.workingDirectory = workingDirectory
    self.paths = paths
  }

  private func absolutePath(_ path: String) -> String { FileSystemPath.absolute(path, in: workingDirectory) }

  private func url(for path: String) -> URL { URL(fileURLWithPath: absolutePath(path)) }

  /// The library folder, ``FlowPaths/workflows``: `$XDG_DATA_HOME/flow/workflows`, by default
  /// `~/.local/share/flow/workflows`.
  public var libraryDirectory: URL { paths.workflows }

  /// Where `flow remove` keeps what it takes out of the library (and where an import that replaces a
  /// workflow keeps the old copy): `.backup/` inside the library, so backups move with it.
  public var backupDirectory: URL { Self.backupDirectory(of: libraryDirectory) }

  /// `.backup/` inside `library`, so that backups move with it.
  public static func backupDirectory(of library: URL) -> URL { library.appendingPathComponent(".backup") }

  /// The library's workflows by name (what `flow run NAME` takes), sorted by name.
  public var libraryWorkflows: [(name: String, url: URL)] {
    libraryFiles.map { ($0.name, URL(fileURLWithPath: $0.path)) }
  }

  /// The library's workflows by name, with their paths, sorted by name: what ``libraryWorkflows`` lists,
  /// read with readdir(3) and its entry types, so that only a link (or a file system that gives no type)
  /// costs a stat(2). Foundation's listing and `isDirectory` build a URL and its resource values for each
  /// file, which was most of a `flow mcp` call in a library of 1,000 workflows (Performance.md).
  public var libraryFiles: [(name: String, path: String)] {
    let folder = libraryDirectory.fileSystemPath
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var found: [(name: String, path: String)] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix("."), let dot = name.lastIndex(of: "."),
        ["yml", "yaml"].contains(name[name.index(after: dot)...])
      else { continue }
      let path = folder + "/" + name
      // A folder named like a workflow is not one; a link that leads nowhere is listed, to be reported.
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_DIR): continue
      case Int32(DT_REG): break
      default:
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
      }
      found.append((String(name[..<dot]), path))
    }
    // `NAME.yml` before `NAME.yaml`, as ``libraryFile(named:)`` and ``locate(_:)`` look for them.
    return found.sorted { $0.name < $1.name || ($0.name == $1.name && $0.path.hasSuffix(".yml")) }
  }

  /// The library workflow called `name` (`NAME.yml`, else `NAME.yaml`), found without listing the library:
  /// what ``libraryWorkflows`` would list under that name; nil when it lists none.
  public func libraryFile(named name: String) -> String? {
    guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/") else { return nil }
    let folder = libraryDirectory.fileSystemPath
    for path in [folder + "/" + name + ".yml", folder + "/" + name + ".yaml"] {
      var status = stat()
      if lstat(path, &status) != 0 { continue }
      if status.st_mode & S_IFMT == S_IFDIR { continue }
      if status.st_mode & S_IFMT == S_IFLNK, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
      return path
    }
    return nil
  }

  /// `path` absolute, with links resolved: what run history and the workflow's lock know a workflow by,
  /// so that two names for one file are one workflow. realpath(3) for a file that exists (every run);
  /// Foundation's resolution, which also stands for what is not there, otherwise. The two agree on every
  /// file that exists but one reached through `..` after a link, where realpath(3) finds the file and
  /// Foundation, removing the `..` as text first, named a path that is not there
  /// (`WorkflowLocatorTests.resolvedPaths`).
  public func resolvedPath(_ path: String) -> String {
    FileSystemPath.resolved(absolutePath(path))
      ?? url(for: path).standardized.resolvingSymlinksInPath().path
  }

  /// The path to read for what a person typed (`flow run REFERENCE`), as they should see it: a path
  /// from the working directory, a library name, a name in `./workflows`; nil when nothing matches.
  public func locate(_ reference: String) -> String? {
    let names = Self.names(reference)
    // In turn, so that a file found as written (the usual case) costs no library path.
    if let found = firstFile(names) { return found }
    guard !reference.contains("/") else { return nil }
    return firstFile(inLibrary(names)) ?? firstFile(names.map { "workflows/\($0)" })
  }

  /// `reference` as a file name: as written, and with `.yml` and `.yaml` when it has neither.
  private static func names(_ reference: String) -> [String] {
    reference.hasSuffix(".yml") || reference.hasSuffix(".yaml")
      ? [reference] : [reference, reference + ".yml", reference + ".yaml"]
  }

  /// `names` in the library folder, joined as text: `appendingPathComponent` and `.path` build a
  /// `Set<UInt8>` at every call (``FlowLibrary/FileSystemPath``), and `appending(path:)` parses the URL
  /// it makes, 11,000 instructions a name. A name here holds no `/` (``locate(_:)``).
  private func inLibrary(_ names: [String]) -> [String] {
    let folder = libraryDirectory.fileSystemPath
    return names.map { folder + "/" + $0 }
  }

  private func firstFile(_ candidates: [String]) -> String? {
    candidates.first { path in
      var isDirectory = false
      return FileManager.default.fileExists(atPath: absolutePath(path), isDirectory: &isDirectory)
        && !isDirectory
    }
  }

  /// Why `reference` names no workflow: nothing is there (with the closest name the library or
  /// `./workflows` has), or what is there is a folder or a link that leads nowhere (which "no workflow
  /// named" would leave a person puzzling over).
  public func notFound(_ reference: String) -> Diagnostic {
    let path = url(for: reference).path
    var status = stat()
    // A path (it has a `/`) is looked for only where it says, relative to the working folder: say which
    // folder that was, since the usual slip is running flow from another one.
    guard lstat(path, &status) == 0 || !reference.contains("/") else {
      let folder = PathText.deletingLastComponent(url(for: reference).standardizedFileURL.path)
      let problem = Diagnostic(.error, .fileNotFound, "no such file in \(folder)", file: reference)
      let name = WorkflowName.stripExtension(PathText.lastComponent(reference))
      guard libraryWorkflows.contains(where: { $0.name == name }) else { return problem }
      return problem.help("the library has a workflow named '\(name)', which works from any folder")
    }
    guard lstat(path, &status) == 0 else {
      var problem = Diagnostic(.error, .fileNotFound, "no workflow named '\(reference)'", file: reference)
      if !reference.contains("/"),
        let match = Suggestion.closest(to: WorkflowName.stripExtension(reference), among: knownNames)
      {
        problem = problem.help("did you mean '\(match)'?")
      }
      return problem.help("give a path, or a name from the library or ./workflows")
    }
    if status.st_mode & S_IFMT == S_IFDIR {
      return Diagnostic(.error, .fileNotFound, "'\(reference)' is a folder, not a workflow file", file: reference)
    }
    let reason = stat(path, &status) == 0 ? "it is not a file" : String(cString: strerror(errno))
    return Diagnostic(
      .error, .fileNotFound, "'\(reference)' is a link that leads to no file: \(reason)", file: reference)
  }

  /// The names a bare reference finds: the library's, then those in `./workflows/`.
  private var knownNames: [String] {
    let local = (try? FileManager.default.contentsOfDirectory(atPath: url(for: "workflows").path)) ?? []
    let names = local.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.map(WorkflowName.stripExtension)
    return libraryWorkflows.map(\.name) + names.sorted()
  }

  // MARK: - WorkflowFiles

  /// `run-workflow`: a path relative to the running workflow's folder, or a library name. Never the
  /// working directory or `./workflows`: a workflow run from the library, by the scheduler or after an
  /// import, must find the same file wherever flow was started (issue 16).
  public func locate(_ reference: String, inFolder folder: String) -> String? {
    let names = Self.names(reference)
    let beside = names.map { folder.isEmpty || $0.hasPrefix("/") ? $0 : "\(folder)/\($0)" }
    if let found = firstFile(beside) { return found }
    return reference.contains("/") ? nil : firstFile(inLibrary(names))
  }

  /// The file's own path (realpath(3)), which two names for one file share; Foundation's standardised
  /// path for a file that is not there. Only keys the check's own tables: nothing keeps it.
  public func canonicalPath(_ path: String) -> String {
    FileSystemPath.resolved(absolutePath(path)) ?? url(for: path).standardizedFileURL.path
  }

  public func read(_ path: String) -> Result<SourceFile, Diagnostic> {
    RegularFile.source(path, at: absolutePath(path))
  }
}
