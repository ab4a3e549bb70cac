import FlowModel

/// A `file` trigger firing: which trigger, the file and what happened to it. ``FileTriggerWatcher``
/// hands these over in batches, one per read of the kernel's queue, in the order the kernel gave them.
public struct FileEvent: Sendable, Hashable {
  /// The ``FileWatch/id`` of the trigger.
  public var watch: Int
  /// The file's absolute path: the watched folder's path as armed, the subfolders, the name.
  public var path: String
  public var kind: Trigger.FileEvent

  public init(watch: Int, path: String, kind: Trigger.FileEvent) {
    self.watch = watch
    self.path = path
    self.kind = kind
  }
}
