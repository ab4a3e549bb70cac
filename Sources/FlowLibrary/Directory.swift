import Foundation

/// Folders flow keeps its state in.
enum Directory {
  /// Creates `url` and any missing parents, private to the user (mode 0700, as the XDG specification
  /// asks), and returns what went wrong, if anything, in the system's words and naming the folder that
  /// could not be made ("/home/ada/.local/state: Permission denied"). One `mkdir` call when the parent
  /// exists, which is every run but the first: Foundation's version looks up file attributes and user
  /// names, a measurable part of a one-step run, and says only "NSCocoaErrorDomain error 512" when a
  /// file stands where a folder should.
  static func create(_ url: URL) -> String? {
    problem(url.path).map { "cannot create \(url.path): \($0)" }
  }

  private static func problem(_ path: String) -> String? {
    if mkdir(path, 0o700) == 0 { return nil }
    let error = errno
    switch error {
    case EEXIST:
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return nil }
      return "\(path) is a file, not a folder"
    case ENOENT:
      let parent = (path as NSString).deletingLastPathComponent
      guard parent != path, !parent.isEmpty else { return String(cString: strerror(error)) }
      if let problem = problem(parent) { return problem }
      if mkdir(path, 0o700) == 0 || errno == EEXIST { return nil }
      return "\(path): \(String(cString: strerror(errno)))"
    case ENOTDIR:
      // A file stands where one of the parents should be: name it.
      var parent = (path as NSString).deletingLastPathComponent
      var status = stat()
      while !parent.isEmpty, parent != "/", stat(parent, &status) != 0 {
        parent = (parent as NSString).deletingLastPathComponent
      }
      return "\(parent) is a file, not a folder"
    default:
      return "\(path): \(String(cString: strerror(error)))"
    }
  }
}
