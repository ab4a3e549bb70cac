import FlowDiagnostics
import FlowLibrary
import FlowYAML
import Foundation

/// Reads workflow files for the commands, turning every way that can fail into a diagnostic: through
/// ``RegularFile``, the one reader (regular files only, counted as they are read).
enum SourceReader {
  static func read(_ path: String, in context: CLIContext, limits: YAMLLimits = .workflow) -> Result<
    SourceFile, Diagnostic
  > {
    RegularFile.source(path, at: context.absolutePath(path), limits: limits)
  }
}
