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
}
