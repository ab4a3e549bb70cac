import FlowDiagnostics

/// Bounds that keep a hostile file from exhausting time or memory.
///
/// Workflow files are a few kilobytes and nest a few dozen levels; the defaults are far above that and
/// far below what would hurt.
public struct YAMLLimits: Sendable, Hashable {
  /// The largest file read at all. 4 MiB is a thousand times a large workflow.
  public var maxFileSize: Int
  /// The longest single scalar, in bytes. 1 MiB holds any note or template a workflow needs.
  public var maxScalarSize: Int
  /// How deep sequences and mappings may nest. Parsing uses an explicit stack, so this guards the
  /// recursive walks of later stages, not the parser.
  public var maxDepth: Int
  /// How many nodes aliases may add by expansion, in total. A "billion laughs" file multiplies nodes
  /// through nested aliases; counting them stops it after a bounded amount of work, while the
  /// expanded nodes themselves share storage (arrays are copy-on-write).
  public var maxAliasExpansion: Int

  public init(maxFileSize: Int, maxScalarSize: Int, maxDepth: Int, maxAliasExpansion: Int) {
    self.maxFileSize = maxFileSize
    self.maxScalarSize = maxScalarSize
    self.maxDepth = maxDepth
    self.maxAliasExpansion = maxAliasExpansion
  }

  /// The limits for workflow files.
  public static let workflow = YAMLLimits(
    maxFileSize: 4 << 20,
    maxScalarSize: 1 << 20,
    maxDepth: 256,
    maxAliasExpansion: 100_000
  )

  /// Limits for large trusted inputs (benchmarks): size bounds lifted, structure bounds kept.
  public static let large = YAMLLimits(
    maxFileSize: .max,
    maxScalarSize: .max,
    maxDepth: 256,
    maxAliasExpansion: 100_000
  )
}

extension YAMLLimits {
  /// The diagnostic for a file of `size` bytes, if that is over the limit. Readers call it before
  /// reading a file at all, so a huge file costs nothing.
  public func checkFileSize(_ size: Int, path: String) -> Diagnostic? {
    guard size > maxFileSize else { return nil }
    return Diagnostic(
      .error, .fileTooLarge,
      "the file is \(ByteCount(size)), more than the \(ByteCount(maxFileSize)) a workflow file may be",
      file: path)
  }

  /// The diagnostic for a stream or download stopped at the limit, whose full size is never known.
  public func streamTooLarge(path: String) -> Diagnostic {
    Diagnostic(
      .error, .fileTooLarge, "the file is longer than the \(ByteCount(maxFileSize)) a workflow file may be", file: path)
  }
}
