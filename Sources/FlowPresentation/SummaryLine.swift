import FoundationEssentials

/// The line under a workflow's name, as SwiftShortcuts shows a shared shortcut: "6 actions · modified
/// 2 months ago · unsigned".
///
/// Where the dates come from is the caller's business (a `shared:` block's dates when the file has one,
/// else the file's modification time); times are said against the injected clock.
public struct SummaryLine: Sendable, Hashable {
  public var actionCount: Int
  /// When the workflow was first shared; nil for a file that never was.
  public var created: Date?
  public var modified: Date?
  public var signature: SignatureStatus
  /// The line as a person reads it.
  public var text: String

  public init(actionCount: Int, created: Date?, modified: Date?, signature: SignatureStatus, now: Date) {
    self.actionCount = actionCount
    self.created = created
    self.modified = modified
    self.signature = signature
    var parts = ["\(actionCount) action\(actionCount == 1 ? "" : "s")"]
    if let created { parts.append("created " + RelativeTime.since(created, now: now)) }
    // A modification within a minute of creation is the same moment, said once.
    if let modified, created.map({ abs(modified.timeIntervalSince($0)) >= 60 }) ?? true {
      parts.append("modified " + RelativeTime.since(modified, now: now))
    }
    parts.append(signature.words)
    text = parts.joined(separator: " · ")
  }
}

extension SummaryLine: Encodable {
  private enum CodingKeys: String, CodingKey { case actions, created, modified, signature, text }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(actionCount, forKey: .actions)
    // Left out when unknown, as every JSON document of flow leaves out keys without a value.
    try container.encodeIfPresent(created.map(Self.iso8601), forKey: .created)
    try container.encodeIfPresent(modified.map(Self.iso8601), forKey: .modified)
    try container.encode(signature, forKey: .signature)
    try container.encode(text, forKey: .text)
  }

  /// `2026-11-21T14:30:00Z`: UTC, to the second, as dates print everywhere else in flow.
  static func iso8601(_ date: Date) -> String { date.formatted(.iso8601) }
}
