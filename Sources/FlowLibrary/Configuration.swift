import FlowDiagnostics
import FlowModel
import FlowRuntime
import FlowYAML
import FoundationEssentials

/// `config.yml` (in ``FlowPaths/config``): the one reader of flow's settings.
///
/// ```yaml
/// backend: local            # or raindrop (see Documentation/Backends.md)
/// history:                  # or: history: off
///   keep-runs: 1000         # per workflow
///   keep-days: 90
/// limits:                   # how large a run's values may grow (Documentation/Running.md)
///   text: 16 MiB            # of text in one value
///   items: 1000000          # list items and dictionary entries in one value
///   depth: 256              # lists and dictionaries nested in one value
///   passes: 1000000         # of one repeat or for-each
/// servers:                  # MCP servers whose tools are actions (Documentation/MCP.md)
///   time: {command: uvx, args: [mcp-server-time]}
/// ```
///
/// Keys it does not know are left alone, so that a newer flow's settings do not break an older one.
public struct Configuration: Sendable {
  /// `backend:` as written; the command line checks the name.
  public var backend: Located<String>?
  public var history = HistoryPolicy()
  public var limits = ValueLimits()
  /// `servers:`, in the order written (Configuration+Servers.swift).
  public var servers: [ServerConfiguration] = []

  public init() {}

  /// The server configured under this name.
  public func server(named name: String) -> ServerConfiguration? { servers.first { $0.name == name } }

  /// The settings in `url`, the defaults when there is no such file, or the first problem in it.
  public static func load(_ url: URL) throws(Diagnostic) -> Configuration {
    var configuration = Configuration()
    let file: SourceFile
    let path = url.fileSystemPath
    switch RegularFile.read(path, limit: YAMLLimits.workflow.maxFileSize) {
    case .success(let bytes): file = SourceFile(path: path, bytes: bytes)
    case .failure(.missing): return configuration
    case .failure(let problem): throw problem.diagnostic(path: path)
    }
    let document = YAMLDocument.load(file)
    if let problem = document.diagnostics.all.first { throw problem }
    guard let root = document.root else { return configuration }
    guard let mapping = root.mapping else {
      throw Diagnostic(.error, .wrongKind, "expected a mapping of settings, found \(root.kindName)", at: root.span)
        .help("write one 'key: value' per line, such as 'backend: local'")
    }
    if let entry = mapping["backend"] {
      guard let scalar = entry.value.scalar else {
        throw Diagnostic(
          .error, .wrongKind, "expected a backend name, found \(entry.value.kindName)", at: entry.value.span)
      }
      configuration.backend = Located(scalar.value, at: scalar.span)
    }
    if let entry = mapping["history"] { configuration.history = try history(entry.value) }
    if let entry = mapping["limits"] { configuration.limits = try limits(entry.value) }
    if let entry = mapping["servers"] { configuration.servers = try servers(entry.value) }
    return configuration
  }

  private static let historyKeys = ["keep-runs", "keep-days"]
  private static let limitKeys = ["text", "items", "depth", "passes"]

  /// `limits:`, a mapping of `text` (bytes, or with KiB, MiB or GiB), `items`, `depth` and `passes`.
  private static func limits(_ node: YAMLNode) throws(Diagnostic) -> ValueLimits {
    guard let mapping = node.mapping else {
      throw Diagnostic(.error, .wrongKind, "expected a mapping for 'limits', found \(node.kindName)", at: node.span)
        .help("write 'limits:' with 'text', 'items', 'depth' or 'passes' under it")
    }
    var limits = ValueLimits()
    for entry in mapping.entries {
      switch entry.key.value {
      case "text": limits.textBytes = try bytes(entry)
      case "items": limits.items = try count(entry, unit: "items")
      case "depth": limits.depth = try count(entry, unit: "levels")
      case "passes": limits.passes = try count(entry, unit: "passes")
      default:
        throw unknownKey(
          entry.key, "limit", among: limitKeys, otherwise: "the limits are 'text', 'items', 'depth' and 'passes'")
      }
    }
    return limits
  }

  /// A size: a whole number of bytes, or one followed by KiB, MiB or GiB ("64 MiB").
  private static func bytes(_ entry: YAMLNode.Mapping.Entry) throws(Diagnostic) -> Int {
    let units = ["KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30]
    if let scalar = entry.value.scalar {
      let text = scalar.value.trimmingWhitespace()
      let unit = units.first { text.hasSuffix($0.key) }
      let digits = unit.map { String(text.dropLast($0.key.count)).trimmingWhitespace() } ?? text
      if let number = Int(digits), number >= 1, number <= Int.max / (unit?.value ?? 1) {
        return number * (unit?.value ?? 1)
      }
    }
    throw Diagnostic(
      .error, .invalidValue, "'\(entry.key.value)' must be a size, such as 16777216 or '64 MiB'", at: entry.value.span)
  }

  /// `history: on|off`, or a mapping of `keep-runs` and `keep-days`. Only `true` and `false` are
  /// booleans in flow's YAML; `on` and `off` are accepted here too because that is how people write a
  /// switch in a settings file.
  private static func history(_ node: YAMLNode) throws(Diagnostic) -> HistoryPolicy {
    var policy = HistoryPolicy()
    if let scalar = node.scalar {
      switch scalar.value {
      case "off", "false": policy.enabled = false
      case "on", "true": break
      default:
        throw Diagnostic(.error, .unknownValue, "unknown history setting '\(scalar.value)'", at: scalar.span)
          .help("write 'history: off', or a mapping with 'keep-runs' and 'keep-days'")
      }
      return policy
    }
    guard let mapping = node.mapping else {
      throw Diagnostic(
        .error, .wrongKind, "expected 'off' or a mapping for 'history', found \(node.kindName)", at: node.span)
    }
    for entry in mapping.entries {
      switch entry.key.value {
      case "keep-runs": policy.keepRuns = try count(entry, unit: "runs")
      case "keep-days": policy.keepDays = try count(entry, unit: "days", most: Self.longestKeepDays)
      default:
        throw unknownKey(
          entry.key, "history setting", among: historyKeys,
          otherwise: "the history settings are 'keep-runs' and 'keep-days'")
      }
    }
    return policy
  }

  /// A key no setting has: the closest one as help when there is one, else `otherwise`.
  static func unknownKey(_ key: YAMLNode.Scalar, _ what: String, among keys: [String], otherwise: String)
    -> Diagnostic
  {
    let help = Suggestion.closest(to: key.value, among: keys).map { "did you mean '\($0)'?" }
    return Diagnostic(.error, .unknownKey, "unknown \(what) '\(key.value)'", at: key.span).help(help ?? otherwise)
  }

  /// The longest history may be kept: a hundred years. The day count becomes a date (days × 86,400
  /// seconds before now), which a larger number pushes past what a date in milliseconds holds.
  static let longestKeepDays = 36_500

  private static func count(
    _ entry: YAMLNode.Mapping.Entry, unit: String, most: Int = .max
  ) throws(Diagnostic) -> Int {
    guard let scalar = entry.value.scalar, case .int(let number) = scalar.resolved, number >= 1 else {
      throw Diagnostic(
        .error, .invalidValue, "'\(entry.key.value)' must be a whole number of \(unit), at least 1",
        at: entry.value.span)
    }
    guard number <= most else {
      throw Diagnostic(
        .error, .invalidValue, "'\(entry.key.value)' must be at most \(most) \(unit), found \(number)",
        at: entry.value.span)
    }
    return number
  }
}
