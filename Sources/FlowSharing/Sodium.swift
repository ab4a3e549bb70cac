import CSodium

/// What sharing needs from libsodium: Ed25519 key pairs from a seed, detached signatures and their check
/// (its SHA-256 is FlowIntents' `Digest`). Ed25519 is deterministic (RFC 8032), so a seed gives the same key pair and a
/// message the same signature bytes as swift-crypto (BoringSSL) gave before: keys and signed files made
/// with earlier builds stay valid (SignatureTests.keysAndSignaturesOfEarlierBuildsStayValid).
enum Sodium {
  /// `sodium_init` once per process, before the first call: it picks the fastest implementations and
  /// seeds the random generator. It fails only when the system has no source of randomness, where no
  /// key could be made safely.
  private static let ready: Void = {
    precondition(sodium_init() >= 0, "libsodium could not start: no source of randomness")
  }()

  static let seedBytes = Int(crypto_sign_ed25519_SEEDBYTES)
  static let publicKeyBytes = Int(crypto_sign_ed25519_PUBLICKEYBYTES)
  static let signatureBytes = Int(crypto_sign_ed25519_BYTES)

  /// 32 bytes from the system's random generator: a new seed.
  static func randomSeed() -> [UInt8] {
    _ = ready
    var seed = [UInt8](repeating: 0, count: seedBytes)
    seed.withUnsafeMutableBytes { buffer in
      if let start = buffer.baseAddress { randombytes_buf(start, buffer.count) }
    }
    return seed
  }

  /// The public key and the 64-byte secret key (seed and public key, libsodium's form) of a 32-byte seed.
  static func keyPair(seed: [UInt8]) -> (publicKey: [UInt8], secretKey: [UInt8]) {
    precondition(seed.count == seedBytes)
    _ = ready
    var publicKey = [UInt8](repeating: 0, count: publicKeyBytes)
    var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_ed25519_SECRETKEYBYTES))
    // Deriving a key pair from a seed of the right length cannot fail (it returns 0 always).
    _ = crypto_sign_ed25519_seed_keypair(&publicKey, &secretKey, seed)
    return (publicKey, secretKey)
  }

  /// The 64-byte signature of `message` under `secretKey`.
  static func sign(_ message: [UInt8], secretKey: [UInt8]) -> [UInt8] {
    _ = ready
    var signature = [UInt8](repeating: 0, count: signatureBytes)
    _ = crypto_sign_ed25519_detached(&signature, nil, message, UInt64(message.count), secretKey)
    return signature
  }

  /// Whether `signature` signs `message` under `publicKey`. libsodium also refuses keys of small order
  /// and non-canonical encodings, which no key flow made can be.
  static func verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
    guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
    _ = ready
    return crypto_sign_ed25519_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
  }
}
