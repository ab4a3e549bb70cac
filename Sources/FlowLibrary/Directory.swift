import Foundation

/// Folders flow keeps its state in.
enum Directory {
  /// Creates `url` and any missing parents, private to the user (mode 0700, as the XDG specification
  /// asks), and returns what went wrong, if anything. One `mkdir` call when the parent exists, which is
  /// every run but the first: Foundation's version looks up file attributes and user names, a
  /// measurable part of a one-step run.
  static func create(_ url: URL) -> String? {
    if mkdir(url.path, 0o700) == 0 || errno == EEXIST { return nil }
    do {
      try FileManager.default.createDirectory(
        at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      return nil
    } catch {
      return "cannot create \(url.path): \(error.localizedDescription)"
    }
  }
}
