import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowPresentation
import FlowYAML
import FoundationEssentials
import Glibc

/// The library's workflows in the desktop's application launcher (SPEC §11): one freedesktop desktop
/// entry each, `$XDG_DATA_HOME/applications/dev.flow.Flow.workflow.NAME.desktop`, with the workflow's
/// name, description, phrases (as keywords) and its tile as an icon (`$XDG_DATA_HOME/flow/launcher/
/// NAME.svg`, in its colour). The entry runs `flow run --trigger launcher NAME`, which reports through a
/// notification (``LauncherNotice``).
///
/// Entries follow the library through ``follow(_:)``: `flow remove`, `flow import`, `flow launcher
/// list` and the scheduler (whenever the library changes) call it.
public struct LauncherEntries: Sendable {
  public let paths: FlowPaths
  /// The `flow` binary the entries run.
  public let executable: String

  /// The start of every entry's file name: flow's app id, so that flow's entries are told from others.
  public static let prefix = "dev.flow.Flow.workflow."
  /// The key naming the library workflow an entry runs.
  static let workflowKey = "X-Flow-Workflow"
  /// The key holding the workflow file's device and inode, which a file renamed in place keeps.
  static let fileKey = "X-Flow-File"

  public init(paths: FlowPaths, executable: String) {
    self.paths = paths
    self.executable = executable
  }

  public init(context: SessionContext) {
    self.init(paths: context.paths, executable: context.executable)
  }

  /// Where the entry of the library workflow `name` is.
  public func entryFile(_ name: String) -> URL {
    paths.applications.appending(path: "\(Self.prefix)\(name).desktop", directoryHint: .notDirectory)
  }

  /// Where its icon is.
  public func iconFile(_ name: String) -> URL {
    paths.data.appending(path: "launcher/\(name).svg", directoryHint: .notDirectory)
  }

  /// The entry for `workflow`, the library's `name`, kept in `file`.
  public func entry(for workflow: Workflow, name: String, file: URL) -> DesktopEntryFile {
    var keys: [(key: String, value: String)] = [
      ("Type", "Application"), ("Version", "1.4"), ("Name", DesktopEntryFile.string(workflow.name)),
    ]
    if let description = workflow.description, !description.isEmpty {
      keys.append(("Comment", DesktopEntryFile.string(description)))
    }
    keys += [
      ("Exec", DesktopEntryFile.exec([executable, "run", "--trigger", "launcher", name])),
      ("Icon", DesktopEntryFile.string(iconFile(name).path)), ("Terminal", "false"), ("StartupNotify", "false"),
      ("Categories", DesktopEntryFile.list(["Utility"])),
    ]
    let keywords = workflow.phrases.map {
      $0.value.text.replacingEvery("${", with: "").replacingEvery("}", with: "")
    }
    if !keywords.isEmpty { keys.append(("Keywords", DesktopEntryFile.list(keywords))) }
    keys.append((Self.workflowKey, DesktopEntryFile.string(name)))
    if let identity = Self.identity(of: file) { keys.append((Self.fileKey, identity)) }
    return DesktopEntryFile(keys)
  }

  /// Writes the entry and icon of the library's `name`, replacing what was there.
  public func write(_ workflow: Workflow, name: String, file: URL) throws {
    let icon = LauncherIcon.svg(name: workflow.name, icon: workflow.icon, color: workflow.color)
    try PrivateFiles.ensureDirectory(iconFile(name).deletingLastPathComponent())
    try Data(icon.utf8).write(to: iconFile(name), options: .atomic)
    try entry(for: workflow, name: name, file: file).write(to: entryFile(name))
  }

  /// Removes the entry and icon of `name`; false when it had no entry.
  @discardableResult
  public func remove(_ name: String) -> Bool {
    let removed = (try? FileManager.default.removeItem(at: entryFile(name))) != nil
    try? FileManager.default.removeItem(at: iconFile(name))
    return removed
  }

  /// The workflows that have an entry, by library name, in name order.
  public func installed() -> [(name: String, entry: DesktopEntryFile)] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: paths.applications.path)) ?? []
    return files.filter { $0.hasPrefix(Self.prefix) && $0.hasSuffix(".desktop") }.sorted().compactMap { file in
      guard let entry = DesktopEntryFile.read(paths.applications.appending(path: file)),
        let name = entry[Self.workflowKey], file == "\(Self.prefix)\(name).desktop"
      else { return nil }
      return (name, entry)
    }
  }

  /// What following the library changed.
  public enum Change: Sendable, Hashable {
    case updated(String)
    case renamed(from: String, to: String)
    case removed(String)
  }

  /// Brings every entry up to date with `library` (its workflows by name and file): an entry whose
  /// workflow changed is written again, one whose file was renamed (the same file, by device and inode)
  /// moves to the new name, one whose workflow is gone is removed. A workflow that does not decode
  /// keeps the entry it has.
  @discardableResult
  public func follow(_ library: [(name: String, url: URL)]) -> [Change] {
    let installed = installed()
    guard !installed.isEmpty else { return [] }
    let byName = Dictionary(library.map { ($0.name, $0.url) }, uniquingKeysWith: { first, _ in first })
    let withEntry = Set(installed.map(\.name))
    var changes: [Change] = []
    for (name, entry) in installed {
      if let url = byName[name] {
        guard let workflow = Self.decode(url) else { continue }
        let fresh = self.entry(for: workflow, name: name, file: url)
        guard fresh != entry || !FileManager.default.fileExists(atPath: iconFile(name).path) else { continue }
        if (try? write(workflow, name: name, file: url)) != nil { changes.append(.updated(name)) }
        continue
      }
      let moved = entry[Self.fileKey].flatMap { identity in
        library.first { !withEntry.contains($0.name) && Self.identity(of: $0.url) == identity }
      }
      remove(name)
      if let moved, let workflow = Self.decode(moved.url),
        (try? write(workflow, name: moved.name, file: moved.url)) != nil
      {
        changes.append(.renamed(from: name, to: moved.name))
      } else {
        changes.append(.removed(name))
      }
    }
    return changes
  }

  /// The workflow in `url`, decoded without its steps being checked: what an entry shows.
  public static func decode(_ url: URL) -> Workflow? {
    guard case .success(let bytes) = RegularFile.read(url.path, limit: YAMLLimits.workflow.maxFileSize) else {
      return nil
    }
    let file = SourceFile(path: url.path, bytes: bytes)
    return WorkflowDecoder.decode(YAMLDocument.load(file)).workflow
  }

  /// `DEVICE:INODE` of `file`, which a rename within its file system keeps.
  static func identity(of file: URL) -> String? {
    var status = stat()
    guard lstat(file.path, &status) == 0 else { return nil }
    return "\(status.st_dev):\(status.st_ino)"
  }
}
