import FlowDiagnostics
import FlowYAML
import Foundation

/// Reads workflow files for the commands, turning every way that can fail into a diagnostic.
enum SourceReader {
  static func read(_ path: String, in context: CLIContext, limits: YAMLLimits = .workflow) -> Result<
    SourceFile, Diagnostic
  > {
    let url = context.url(for: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      return .failure(Diagnostic(.error, .fileNotFound, "no such file", file: path))
    }
    guard !isDirectory.boolValue else {
      return .failure(
        Diagnostic(.error, .fileNotFound, "is a directory, not a workflow file", file: path))
    }
    // Check the size before reading, so that a huge file costs nothing.
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    if let tooLarge = limits.checkFileSize(size, path: path) { return .failure(tooLarge) }
    guard let handle = FileHandle(forReadingAtPath: url.path),
      let data = try? handle.readToEnd() ?? Data()
    else {
      return .failure(Diagnostic(.error, .fileNotFound, "cannot read the file (permission denied?)", file: path))
    }
    try? handle.close()
    return .success(SourceFile(path: path, bytes: [UInt8](data)))
  }
}

extension DiagnosticCode {
  /// A file named on the command line cannot be read.
  public static let fileNotFound: Self = "file-not-found"
}
