import FlowModel

/// A library workflow whose triggers (`on:`) the scheduler arms: checked clean, able to run with nobody
/// there, and — when it was imported — armed by the person's consent (Documentation/Automations.md).
public struct Automation: Sendable {
  public var name: String
  /// Absolute, with links resolved: what locks and run history know the workflow by.
  public var path: String
  public var triggers: [Trigger]
  /// The folders of its `file` triggers with `~` expanded, by the trigger's index in ``triggers``.
  public var folders: [Int: String]
  public var runPolicy: Workflow.RunPolicy
  public var notifyWhenRun: Bool
  /// Its runs ask the person at the desktop (SPEC §11): it would have to ask, and the daemon's session
  /// can show dialogs, so its runs are started without `--no-input`.
  public var asks: Bool

  public init(
    name: String, path: String, triggers: [Trigger], folders: [Int: String],
    runPolicy: Workflow.RunPolicy = .immediately,
    notifyWhenRun: Bool = false, asks: Bool = false
  ) {
    self.name = name
    self.path = path
    self.triggers = triggers
    self.folders = folders
    self.runPolicy = runPolicy
    self.notifyWhenRun = notifyWhenRun
    self.asks = asks
  }

  /// The file watches its `file` triggers need; `id` maps a watch back to (automation, trigger).
  func watches(id: (Int) -> Int) -> [FileWatch] {
    triggers.indices.compactMap { index in
      guard case .file(let condition) = triggers[index].condition, let folder = folders[index] else { return nil }
      return FileWatch(
        id: id(index), folder: folder, pattern: condition.pattern, recursive: condition.recursive,
        events: Set(condition.events))
    }
  }
}
