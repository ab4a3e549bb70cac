import FlowDiagnostics
import FlowLibrary
import FlowYAML
import FoundationEssentials

/// Reads workflow files for the commands, turning every way that can fail into a diagnostic: through
/// ``RegularFile``, the one reader (regular files only, counted as they are read).
public enum SourceReader {
  public static func read(_ path: String, in context: SessionContext, limits: YAMLLimits = .workflow) -> Result<
    SourceFile, Diagnostic
  > {
    RegularFile.source(path, at: context.absolutePath(path), limits: limits)
  }
}
