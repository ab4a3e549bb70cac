import FlowModel

/// One `file` trigger as the watcher arms it: a folder, already expanded (`~` resolved, absolute), the
/// files in it that count and what happening to them fires.
///
/// Several watches may name one folder: the kernel watches it once, and each event is reported for every
/// watch whose pattern and kinds it matches.
public struct FileWatch: Sendable, Hashable {
  /// The integrator's key for the trigger, carried by every ``FileEvent`` and ``WatchProblem`` it causes.
  public var id: Int
  /// The folder watched: an absolute path (a trailing `/` is ignored).
  public var folder: String
  /// A glob on the file's name alone (`fnmatch(3)` without flags, so `*.pdf` does not match `X.PDF`), or
  /// nil for any file. Hidden and temporary names never match (``FileTriggerWatcher/ignores(_:)``).
  public var pattern: String?
  /// Whether files in the folder's subfolders count too, at any depth, hidden subfolders aside.
  public var recursive: Bool
  /// The kinds that fire; the others are still followed, so that what is reported later is right.
  public var events: Set<Trigger.FileEvent>

  public init(
    id: Int, folder: String, pattern: String? = nil, recursive: Bool = false,
    events: Set<Trigger.FileEvent> = [.created]
  ) {
    self.id = id
    self.folder = folder
    self.pattern = pattern
    self.recursive = recursive
    self.events = events
  }
}
