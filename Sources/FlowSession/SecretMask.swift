import FlowHistory
import FlowIntents

/// Masks a run's secrets (`secrets:`) with `••••` in what leaves the run for a reader other than run
/// history, which masks with its own ``Redactor``: the terminal (``RedactingConsole``) and an MCP tool's
/// result.
public struct SecretMask: Sendable {
  let redact: Redactor

  public init(secrets: [String]) {
    redact = Redactor(secrets: secrets, mask: Redactor.shownMask)
  }

  public var isEmpty: Bool { redact.isEmpty }

  public func callAsFunction(_ text: String) -> String { redact(text) }

  /// `value` with every text in it masked, keys of dictionaries included.
  public func callAsFunction(_ value: FlowValue) -> FlowValue {
    guard !redact.isEmpty else { return value }
    switch value {
    case .text(let text): return .text(redact(text))
    case .list(let items): return .list(items.map { self($0) })
    case .dictionary(let dictionary):
      return .dictionary(FlowDictionary(dictionary.map { (key: redact($0.key), value: self($0.value)) }))
    case .url(let url):
      let masked = redact(url.absoluteString)
      return masked == url.absoluteString ? value : .text(masked)
    case .entity, .number, .boolean, .date, .nothing:
      // An entity's fields are read by the one who asked for it, from its own service; see Secrets.md.
      return value
    }
  }
}
