/// What happened to a file that a `file` trigger may fire on.
///
/// Each kind is counted only once the file is whole: a file being written fires nothing until its writer
/// closes it, so a workflow never reads half a download.
public enum FileEventKind: String, Sendable, Hashable, CaseIterable {
  /// A file appeared complete: a new name closed after writing (`IN_CLOSE_WRITE`), or moved in
  /// (`IN_MOVED_TO`), the way browsers finish a download (`x.pdf.part` renamed to `x.pdf`). Also every file
  /// found in a folder that appeared under a recursive watch, or in a watched folder that came into being.
  case created
  /// A file already there was closed after writing, or replaced by a rename onto its name (an editor's
  /// atomic save).
  case changed
  /// A file that was there was deleted (`IN_DELETE`) or moved away (`IN_MOVED_FROM`), or left with a
  /// subfolder that was.
  case deleted
}
