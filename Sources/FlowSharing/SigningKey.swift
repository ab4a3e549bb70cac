import FlowDiagnostics
import FlowIntents
import FoundationEssentials

/// An Ed25519 public key: what a signature block carries and what a person trusts under a name.
public struct PublicKey: Sendable, Hashable {
  /// The 32 bytes of the key.
  public let raw: [UInt8]

  /// The 32 bytes libsodium derived from a seed.
  init(checked raw: [UInt8]) {
    self.raw = raw
  }

  /// Any 32 bytes, as swift-crypto took them before: whether they are a usable key shows when a
  /// signature is checked against them.
  public init?(raw: [UInt8]) {
    guard raw.count == Sodium.publicKeyBytes else { return nil }
    self.raw = raw
  }

  /// The key in base64, as the signature block and `flow keys export` write it.
  public var base64: String { Data(raw).base64EncodedString() }

  /// `SHA256:` and the unpadded base64 of the key's SHA-256, as OpenSSH prints fingerprints: what a
  /// person compares with the signer over another channel.
  public var fingerprint: String {
    let digest = Data(Digest.sha256(raw)).base64EncodedString()
    return "SHA256:" + digest.replacingEvery("=", with: "")
  }

  /// `flow-ed25519 KEY NAME`: one line a person can mail, paste or keep in a file.
  public func line(name: String) -> String { "\(Self.linePrefix) \(base64) \(name)" }

  static let linePrefix = "flow-ed25519"

  /// A key from its base64 text, only in its one canonical spelling: a base64 text that decodes to the
  /// same bytes but is spelt otherwise (the unused low bits of the last digit) would let a changed file
  /// read as unchanged.
  public init?(base64 text: String) {
    guard let bytes = Base64.canonical(text, count: 32) else { return nil }
    self.init(raw: bytes)
  }

  /// A key as a person hands it over: the `flow-ed25519 KEY NAME` line (the name is a suggestion), or
  /// the base64 key alone. Returns the key and the name the line suggests.
  public static func parse(_ text: String) -> (key: PublicKey, suggestedName: String?)? {
    let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    switch words.count {
    case 1:
      return PublicKey(base64: words[0]).map { ($0, nil) }
    case 2,
      3 where words[0] == linePrefix:
      return PublicKey(base64: words[1]).map { ($0, words.count == 3 ? words[2] : nil) }
    default:
      return nil
    }
  }

  /// Whether `signature` signs `message` with this key.
  func verifies(_ signature: [UInt8], for message: [UInt8]) -> Bool {
    Sodium.verify(signature, message: message, publicKey: raw)
  }
}

/// An Ed25519 private key: what `flow export --sign` signs with.
public struct SigningKey: Sendable {
  /// The 32-byte seed, as the key file keeps it: the key pair follows from it.
  public let seed: [UInt8]
  public let publicKey: PublicKey
  /// libsodium's 64-byte form: the seed followed by the public key.
  private let secretKey: [UInt8]

  /// A new random key.
  public init() {
    self.init(validSeed: Sodium.randomSeed())
  }

  /// The key from its 32-byte seed; any 32 bytes are one.
  public init?(seed: [UInt8]) {
    guard seed.count == Sodium.seedBytes else { return nil }
    self.init(validSeed: seed)
  }

  private init(validSeed seed: [UInt8]) {
    let pair = Sodium.keyPair(seed: seed)
    self.seed = seed
    self.publicKey = PublicKey(checked: pair.publicKey)
    self.secretKey = pair.secretKey
  }

  func signature(for message: [UInt8]) -> [UInt8] {
    Sodium.sign(message, secretKey: secretKey)
  }
}

/// Base64 in its one canonical spelling.
enum Base64 {
  static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

  /// The bytes of `text` when it is the canonical base64 of exactly `count` bytes.
  static func canonical(_ text: String, count: Int) -> [UInt8]? {
    guard let data = Data(base64Encoded: text), data.count == count, data.base64EncodedString() == text else {
      return nil
    }
    return [UInt8](data)
  }
}
