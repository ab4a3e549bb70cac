import FlowDiagnostics
import FlowModel
import FlowRuntime
import FlowYAML
import Foundation

/// `config.yml` (in ``FlowPaths/config``): the one reader of flow's settings.
///
/// ```yaml
/// backend: local            # or raindrop (see Documentation/Backends.md)
/// history:                  # or: history: off
///   keep-runs: 1000         # per workflow
///   keep-days: 90
/// ```
///
/// Keys it does not know are left alone, so that a newer flow's settings do not break an older one.
public struct Configuration: Sendable {
  /// `backend:` as written; the command line checks the name.
  public var backend: Located<String>?
  public var history = HistoryPolicy()

  public init() {}

  /// The settings in `url`, the defaults when there is no such file, or the first problem in it.
  public static func load(_ url: URL) throws(Diagnostic) -> Configuration {
    var configuration = Configuration()
    guard let data = FileManager.default.contents(atPath: url.path) else { return configuration }
    let document = YAMLDocument.load(SourceFile(path: url.path, bytes: [UInt8](data)))
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
    return configuration
  }

  private static let historyKeys = ["keep-runs", "keep-days"]

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
      case "keep-days": policy.keepDays = try count(entry, unit: "days")
      default:
        let help = Suggestion.closest(to: entry.key.value, among: historyKeys).map { "did you mean '\($0)'?" }
        throw Diagnostic(.error, .unknownKey, "unknown history setting '\(entry.key.value)'", at: entry.key.span)
          .help(help ?? "the history settings are 'keep-runs' and 'keep-days'")
      }
    }
    return policy
  }

  private static func count(_ entry: YAMLNode.Mapping.Entry, unit: String) throws(Diagnostic) -> Int {
    guard let scalar = entry.value.scalar, case .int(let number) = scalar.resolved, number >= 1 else {
      throw Diagnostic(
        .error, .invalidValue, "'\(entry.key.value)' must be a whole number of \(unit), at least 1",
        at: entry.value.span)
    }
    return number
  }
}
