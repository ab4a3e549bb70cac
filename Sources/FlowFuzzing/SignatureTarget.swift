import FlowSharing

/// A shared file's bytes as `flow import` and `flow show` verify them (`SignedFile.verify`, which splits
/// off the signature block and checks Ed25519 over the rest), trusting the key the seeds are signed with
/// so that both outcomes are reached; and the same bytes as a line of `flow keys trust`.
enum SignatureTarget {
  static func run(_ bytes: [UInt8]) {
    let verification = SignedFile.verify(bytes, trustedName: { $0 == Seeds.signingKey.publicKey ? "seeds" : nil })
    _ = (verification.status, verification.problem, verification.key?.fingerprint)
    if case .signed(let content, let key, _) = SignatureBlock.split(bytes) { _ = (content.count, key.base64) }
    _ = PublicKey.parse(String(decoding: bytes, as: UTF8.self))
  }
}
