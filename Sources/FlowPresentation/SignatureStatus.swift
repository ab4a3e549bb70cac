/// Who signed a workflow file, as the summary line, `flow list` and the import card say it (issue 9).
///
/// The status is an input of the summary, never worked out here: `FlowSharing.SignedFile` verifies
/// signatures, and this module, which draws, never sees a key.
public enum SignatureStatus: Sendable, Hashable {
  case unsigned
  /// Signed by a key the person trusts, known by the name they gave it.
  case trusted(name: String)
  /// Signed by a key nobody here has trusted; the fingerprint lets the person check it.
  case unknownKey(fingerprint: String)
  /// A signature that does not match the file's bytes: never importable.
  case tampered
  /// A signature block that cannot be read.
  case malformed

  /// "signed by ada (trusted)", "unsigned".
  public var words: String {
    switch self {
    case .unsigned: "unsigned"
    case .trusted(let name): "signed by \(name) (trusted)"
    case .unknownKey(let fingerprint): "signed by an unknown key (\(fingerprint))"
    case .tampered: "tampered: the signature does not match the file"
    case .malformed: "malformed signature"
    }
  }

  /// The stable name in JSON: `unsigned`, `trusted`, `unknown-key`, `tampered`, `malformed`.
  public var id: String {
    switch self {
    case .unsigned: "unsigned"
    case .trusted: "trusted"
    case .unknownKey: "unknown-key"
    case .tampered: "tampered"
    case .malformed: "malformed"
    }
  }

  /// Whether the person should be warned: anything but unsigned or trusted.
  public var isAlarming: Bool {
    switch self {
    case .unsigned, .trusted: false
    case .unknownKey, .tampered, .malformed: true
    }
  }
}

extension SignatureStatus: Encodable {
  private enum CodingKeys: String, CodingKey { case status, signer, fingerprint, text }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .status)
    try container.encode(words, forKey: .text)
    if case .trusted(let name) = self { try container.encode(name, forKey: .signer) }
    if case .unknownKey(let fingerprint) = self { try container.encode(fingerprint, forKey: .fingerprint) }
  }

}
