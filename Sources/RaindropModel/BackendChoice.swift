/// Which backend a run uses, and why: `--backend`, else the config file, else "raindrop when a token is
/// configured, local otherwise" (issue 5). The CLI reads the flag, the file and the token; this keeps the rule
/// in one testable place and gives the sentence every run prints.
public enum BackendChoice: String, Sendable, Hashable, CaseIterable {
  case local
  case raindrop

  /// Why this backend was chosen, for the line each run prints.
  public enum Reason: Sendable, Hashable {
    case flag
    case configFile
    case tokenConfigured
    case noToken
  }

  public static func resolve(flag: BackendChoice?, configured: BackendChoice?, tokenConfigured: Bool) -> (
    BackendChoice, Reason
  ) {
    if let flag { return (flag, .flag) }
    if let configured { return (configured, .configFile) }
    return tokenConfigured ? (.raindrop, .tokenConfigured) : (.local, .noToken)
  }

  /// "backend: local (no Raindrop.io token configured)".
  public static func describe(_ choice: BackendChoice, _ reason: Reason) -> String {
    "backend: \(choice.rawValue) (\(reason.explanation))"
  }
}

extension BackendChoice.Reason {
  /// Why, in words: "no Raindrop.io token configured".
  public var explanation: String {
    switch self {
    case .flag: "--backend"
    case .configFile: "config file"
    case .tokenConfigured: "a Raindrop.io token is configured"
    case .noToken: "no Raindrop.io token configured"
    }
  }
}
