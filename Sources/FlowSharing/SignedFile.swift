import FlowPresentation

/// Signing a shared file and verifying one (issue 9): Ed25519 over the file's exact bytes.
public enum SignedFile {
  /// What a file's signature says, checked.
  public struct Verification: Sendable {
    public var status: SignatureStatus
    /// The key that signed it, when the block reads and the signature holds.
    public var key: PublicKey?
    /// The bytes without the signature block: the workflow as it was signed, or the whole file.
    public var content: [UInt8]
    /// Why the status is tampered or malformed, in words.
    public var problem: String?
  }

  /// `content` with a signature block by `key` after it. Content that does not end a line gets a line
  /// break first, which is signed with it, so that the block always starts a line.
  public static func sign(_ content: [UInt8], with key: SigningKey) -> [UInt8] {
    var content = content
    if let last = content.last, last != 0x0A { content.append(0x0A) }
    let signature = key.signature(for: SignatureBlock.message(content))
    return content + Array(SignatureBlock.text(key: key.publicKey, signature: signature).utf8)
  }

  /// Checks `bytes`: `trustedName` says under which name, if any, the person trusts a key.
  public static func verify(_ bytes: [UInt8], trustedName: (PublicKey) -> String?) -> Verification {
    switch SignatureBlock.split(bytes) {
    case .unsigned:
      return Verification(status: .unsigned, key: nil, content: bytes, problem: nil)
    case .malformed(let problem):
      return Verification(status: .malformed, key: nil, content: bytes, problem: problem)
    case .signed(let content, let key, let signature):
      guard key.verifies(signature, for: SignatureBlock.message(content)) else {
        return Verification(
          status: .tampered, key: nil, content: content,
          problem: "the file was changed after it was signed: the signature does not match its bytes")
      }
      let status: SignatureStatus =
        trustedName(key).map { .trusted(name: $0) } ?? .unknownKey(fingerprint: key.fingerprint)
      return Verification(status: status, key: key, content: content, problem: nil)
    }
  }
}
