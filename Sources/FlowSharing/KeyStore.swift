import FlowLibrary
import FoundationEssentials
import Glibc

/// The signing keys and trusted keys under `$XDG_CONFIG_HOME/flow/keys/` (issue 9).
///
/// | file | holds |
/// | --- | --- |
/// | `NAME.key` (0600) | `flow-ed25519-private SEED`: a private key of the person's own |
/// | `NAME.pub` | `flow-ed25519 KEY NAME`: its public half, to hand to others |
/// | `trusted/NAME.pub` | `flow-ed25519 KEY NAME`: a key the person trusts, under the name they chose |
///
/// A key generated here is trusted under its own name at once, so that a person's own files read
/// "signed by NAME (trusted)". Text files, one line each, so that a person can read and copy them.
public struct KeyStore: Sendable {
  public let directory: URL

  public init(directory: URL) {
    self.directory = directory
  }

  var trustedDirectory: URL { directory.appendingPathComponent("trusted") }

  /// A key of the person's own.
  public struct OwnKey: Sendable {
    public var name: String
    public var publicKey: PublicKey
    public var file: URL
  }

  /// A key the person trusts.
  public struct TrustedKey: Sendable {
    public var name: String
    public var publicKey: PublicKey
    public var file: URL
  }

  /// Why a key operation could not be done, in words for a diagnostic.
  public struct Problem: Error, Sendable {
    public var message: String
    public var help: String?
    public var file: String?
  }

  static let privatePrefix = "flow-ed25519-private"

  // MARK: - Reading

  /// The person's own keys, by name.
  public func ownKeys() -> [OwnKey] {
    files(in: directory, extension: "key").compactMap { name, url in
      guard let key = try? privateKey(at: url) else { return nil }
      return OwnKey(name: name, publicKey: key.publicKey, file: url)
    }
  }

  /// The keys the person trusts, by name; files that do not read are left out.
  public func trustedKeys() -> [TrustedKey] {
    files(in: trustedDirectory, extension: "pub").compactMap { name, url in
      guard let text = try? String(contentsOf: url, encoding: .utf8), let (key, _) = PublicKey.parse(text) else {
        return nil
      }
      return TrustedKey(name: name, publicKey: key, file: url)
    }
  }

  /// The name under which `key` is trusted, if it is.
  public func trustedName(for key: PublicKey) -> String? {
    trustedNames()(key)
  }

  /// The names keys are trusted under, read once: what `SignedFile.verify` and a provenance record
  /// ask while they work out a status.
  public func trustedNames() -> @Sendable (PublicKey) -> String? {
    let trusted = trustedKeys()
    return { key in trusted.first { $0.publicKey == key }?.name }
  }

  /// The private key `name`.
  public func signingKey(named name: String) throws(Problem) -> SigningKey {
    let url = directory.appendingPathComponent("\(name).key")
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw Problem(
        message: "no signing key named '\(name)'",
        help: "'flow keys list' shows your keys; 'flow keys generate' makes one",
        file: url.path)
    }
    do {
      return try privateKey(at: url)
    } catch {
      throw Self.damaged(name, url)
    }
  }

  /// A private key file that is there but does not read: said as such, never as a missing key.
  private static func damaged(_ name: String, _ url: URL) -> Problem {
    Problem(
      message: "the signing key '\(name)' does not read",
      help:
        "it should be one line, '\(privatePrefix)' and the key; restore it from a backup, or move it away to make a new one",
      file: url.path)
  }

  private func privateKey(at url: URL) throws -> SigningKey {
    let text = try String(contentsOf: url, encoding: .utf8)
    let words = text.split(whereSeparator: \.isWhitespace)
    guard words.count == 2, words[0] == Self.privatePrefix, let seed = Base64.canonical(String(words[1]), count: 32),
      let key = SigningKey(seed: seed)
    else { throw Problem(message: "the key file does not read", file: url.path) }
    return key
  }

  private func files(in directory: URL, extension wanted: String) -> [(String, URL)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.map { directory.appending(path: $0) }.filter { $0.pathExtension == wanted }
      .map { ($0.deletingPathExtension().lastPathComponent, $0) }
      .sorted { $0.0 < $1.0 }
  }

  // MARK: - Changing

  /// Makes a key named `name`, keeps its private half (0600) and public half, and trusts it.
  @discardableResult
  public func generate(name: String) throws(Problem) -> OwnKey {
    let privateFile = directory.appendingPathComponent("\(name).key")
    if FileManager.default.fileExists(atPath: privateFile.path) {
      guard (try? privateKey(at: privateFile)) != nil else { throw Self.damaged(name, privateFile) }
      throw Problem(
        message: "you already have a signing key named '\(name)'", help: "choose another name with --name",
        file: privateFile.path)
    }
    if let other = trustedKeys().first(where: { $0.name == name }) {
      throw Problem(
        message: "'\(name)' already names a key you trust", help: "choose another name with --name",
        file: other.file.path)
    }
    let key = SigningKey()
    try create(directory)
    // Created private: the seed never sits in a file others can read, not even for a moment.
    try writeNew("\(Self.privatePrefix) \(Base64.encode(key.seed))\n", to: privateFile, mode: 0o600)
    try writeNew(
      key.publicKey.line(name: name) + "\n", to: directory.appendingPathComponent("\(name).pub"), mode: 0o600)
    try trust(key.publicKey, as: name)
    return OwnKey(name: name, publicKey: key.publicKey, file: privateFile)
  }

  /// Trusts `key` under `name`. A name already used, or a key already trusted, is refused.
  public func trust(_ key: PublicKey, as name: String) throws(Problem) {
    let trusted = trustedKeys()
    if let same = trusted.first(where: { $0.publicKey == key }) {
      throw Problem(
        message: "this key is already trusted as '\(same.name)'",
        help: "'flow keys untrust \(same.name)' first to trust it under another name", file: same.file.path)
    }
    if let other = trusted.first(where: { $0.name == name }) {
      throw Problem(
        message: "'\(name)' already names another trusted key (\(other.publicKey.fingerprint))",
        help: "choose another name, or 'flow keys untrust \(name)' first", file: other.file.path)
    }
    try create(trustedDirectory)
    try writeNew(key.line(name: name) + "\n", to: trustedDirectory.appendingPathComponent("\(name).pub"), mode: 0o600)
  }

  /// Stops trusting the key named `name`; your own private key, if it is one, stays.
  public func untrust(name: String) throws(Problem) {
    let file = trustedDirectory.appendingPathComponent("\(name).pub")
    guard FileManager.default.fileExists(atPath: file.path) else {
      throw Problem(message: "no trusted key named '\(name)'", help: "'flow keys list' shows the keys you trust")
    }
    do {
      try FileManager.default.removeItem(at: file)
    } catch {
      throw Problem(message: "cannot remove the key: \(error.reason)", file: file.path)
    }
  }

  /// Keys live in private folders (0700, parents too), whatever the umask.
  private func create(_ directory: URL) throws(Problem) {
    if let problem = PrivateFiles.createDirectory(directory) { throw Problem(message: problem, file: directory.path) }
  }

  /// Writes a new file created with `mode` (never an existing one): `open` with `O_EXCL` and the mode,
  /// so that a private key is never readable by others, not even between creating and `chmod`.
  private func writeNew(_ text: String, to url: URL, mode: mode_t) throws(Problem) {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw Problem(message: "cannot write the key file: \(String(cString: strerror(errno)))", file: url.path)
    }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw Problem(message: "cannot write the key file", file: url.path) }
  }
}
