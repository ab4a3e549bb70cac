import FlowDiagnostics
import FoundationEssentials

/// Replaces secrets with `***` in everything run history stores: step summaries, error messages, help
/// lines and the source lines kept for excerpts.
///
/// Secrets are the Raindrop.io token, the values of inputs declared `secret: true`, those of the secrets a
/// workflow reads from the keyring (`secrets:`), and the values of
/// environment variables a workflow reads whose names say they are secret (`*TOKEN*`, `*SECRET*`,
/// `*PASSWORD*`, `*PASSPHRASE*`, `*KEY*`). Each is matched as given and percent-encoded (as it would
/// appear in a URL). A value computed from a secret that no longer contains it (uppercased, hashed) is
/// not recognised; summaries are short, and inputs are never recorded at all.
public struct Redactor: Sendable {
  /// What a secret becomes.
  public static let mask = "***"

  /// What a terminal shows for a secret: a step that shows one shows this.
  public static let shownMask = "••••"

  private let secrets: [String]
  /// The longest secret's length, so that a cut text is masked before it is cut.
  private let longest: Int
  private let replacement: String

  /// An array, not any sequence: a generic walk of one looked its iterator type up at run time, one scan
  /// of every protocol conformance in the program at the start of every recorded run.
  public init(secrets: [String], mask: String = Redactor.mask) {
    replacement = mask
    var all: Set<String> = []
    for secret in secrets where !secret.isEmpty {
      all.insert(secret)
      if case let encoded = secret.addingPercentEscapes(keeping: PlainText.isQueryAllowed), encoded != secret {
        all.insert(encoded)
      }
    }
    // Longest first, so that a secret containing another is masked whole.
    self.secrets = all.sorted { $0.count > $1.count }
    longest = self.secrets.first?.count ?? 0
  }

  /// Redacts nothing.
  public static let none = Redactor(secrets: [])

  /// `text` with every secret masked.
  public func callAsFunction(_ text: String) -> String {
    guard !secrets.isEmpty else { return text }
    var text = text
    for secret in secrets where text.contains(secret) {
      text = text.replacingEvery(secret, with: replacement)
    }
    return text
  }

  /// The start of `text`, masked, at most `limit` characters with '…' where it was cut. Only a prefix
  /// is masked, long enough to hold any secret that starts within the limit, so a megabyte of text costs
  /// no more than a line.
  public func excerpt(_ text: String, limit: Int) -> String {
    let head = text.prefix(limit + longest)
    let masked = self(String(head))
    guard head.endIndex < text.endIndex || masked.count > limit else { return masked }
    return masked.prefix(limit - 1) + "…"
  }

  /// This redactor and `other` together.
  public func adding(_ other: Redactor) -> Redactor {
    Redactor(secrets: secrets + other.secrets, mask: replacement)
  }

  /// Whether there is anything to mask.
  public var isEmpty: Bool { secrets.isEmpty }

  /// Whether an environment variable's name says its value is secret.
  public static func isSecretName(_ name: String) -> Bool {
    let upper = name.uppercased()
    return ["TOKEN", "SECRET", "PASSWORD", "PASSPHRASE", "KEY"].contains { upper.contains($0) }
  }
}
