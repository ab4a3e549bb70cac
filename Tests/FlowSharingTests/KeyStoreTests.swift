import FlowSharing
import Foundation
import Testing

struct KeyStoreTests {
  func store() throws -> KeyStore {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flow-keys-\(UUID().uuidString)")
    return KeyStore(directory: directory.appendingPathComponent("keys"))
  }

  @Test func generateKeepsThePrivateKeyPrivateAndTrustsIt() throws {
    let store = try store()
    let key = try store.generate(name: "ada")
    let mode = try FileManager.default.attributesOfItem(atPath: key.file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: store.directory.path)[.posixPermissions] as? Int
    #expect(folder == 0o700)
    #expect(store.trustedName(for: key.publicKey) == "ada")
    #expect(try store.signingKey(named: "ada").publicKey == key.publicKey)
    #expect(store.ownKeys().map(\.name) == ["ada"])
    #expect(throws: KeyStore.Problem.self) { try store.generate(name: "ada") }
  }

  @Test func trustAndUntrust() throws {
    let store = try store()
    let other = SigningKey().publicKey
    try store.trust(other, as: "grace")
    #expect(store.trustedName(for: other) == "grace")
    // One name per key, one key per name.
    #expect(throws: KeyStore.Problem.self) { try store.trust(other, as: "hopper") }
    #expect(throws: KeyStore.Problem.self) { try store.trust(SigningKey().publicKey, as: "grace") }
    try store.untrust(name: "grace")
    #expect(store.trustedName(for: other) == nil)
    #expect(throws: KeyStore.Problem.self) { try store.untrust(name: "grace") }
  }

  /// A damaged key file is said to be damaged, by `--sign` and `flow keys generate` alike, never taken for
  /// a missing key or a name in use.
  @Test func aDamagedKeyFileSaysSo() throws {
    let store = try store()
    let key = try store.generate(name: "ada")
    try "garbage\n".write(to: key.file, atomically: true, encoding: .utf8)
    #expect(store.ownKeys().isEmpty)
    for attempt in [{ _ = try store.signingKey(named: "ada") }, { _ = try store.generate(name: "ada") }] {
      let problem = try #require(throws: KeyStore.Problem.self, performing: attempt)
      #expect(problem.message == "the signing key 'ada' does not read")
      #expect(problem.file == key.file.path)
    }
    let missing = try #require(throws: KeyStore.Problem.self) { try store.signingKey(named: "grace") }
    #expect(missing.message == "no signing key named 'grace'")
  }
}
