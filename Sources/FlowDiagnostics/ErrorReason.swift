import FoundationEssentials
import Glibc

extension Error {
  /// What went wrong, in the system's words: a file operation's error is its errno's text and the path it
  /// failed on ("No such file or directory (/proc/x)"), any other error its own description. What
  /// Foundation's `localizedDescription` gave was a sentence without either ("The operation could not be
  /// completed. The file doesn’t exist.").
  public var reason: String {
    if let error = self as? CocoaError {
      let cause = (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
      let text = cause ?? "error \(error.code.rawValue)"
      return error.filePath.map { "\(text) (\($0))" } ?? text
    }
    if let error = self as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
    return String(describing: self)
  }
}
