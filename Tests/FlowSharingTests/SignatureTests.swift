import FlowPresentation
import FlowSharing
import FlowTestSupport
import Foundation
import Testing

/// Signatures over a file's exact bytes: what verifies, and that one changed byte anywhere never does.
struct SignatureTests {
  static let workflow = Array(
    """
    flow: 1
    name: Greet   # a comment is signed too
    steps:
      - show: "Hello, ${input}!"
    shared:
      created: 2026-11-23T09:15:00Z
      modified: 2026-11-23T09:15:00Z
      actions: 1
      flow-version: 0.1.0

    """.utf8)

  /// Any 32 bytes are an Ed25519 seed.
  static let key = SigningKey(seed: Array(repeating: 7, count: 32)) ?? SigningKey()

  @Test func signedByATrustedKeyOrAnUnknownOne() {
    let signed = SignedFile.sign(Self.workflow, with: Self.key)
    let trusted = SignedFile.verify(signed) { $0 == Self.key.publicKey ? "ada" : nil }
    #expect(trusted.status == .trusted(name: "ada"))
    #expect(trusted.content == Self.workflow)
    let unknown = SignedFile.verify(signed) { _ in nil }
    #expect(unknown.status == .unknownKey(fingerprint: Self.key.publicKey.fingerprint))
    #expect(Self.key.publicKey.fingerprint.hasPrefix("SHA256:"))
    #expect(Self.key.publicKey.fingerprint.count == 50)
  }

  /// A file `flow export --sign` wrote when flow signed with swift-crypto (BoringSSL), with a key made
  /// from the seed 0, 1, …, 31 (Goldens/signed-with-swift-crypto.flow.yml). libsodium makes the same key
  /// and fingerprint from that seed, verifies the file, and signing its content again gives back the
  /// very same signature bytes: keys and files from earlier builds stay valid.
  @Test func keysAndSignaturesOfEarlierBuildsStayValid() throws {
    let url = testDirectory().appendingPathComponent("Goldens/signed-with-swift-crypto.flow.yml")
    let file = try [UInt8](Data(contentsOf: url))
    let key = try #require(SigningKey(seed: Array(0..<32)))
    #expect(key.publicKey.base64 == "A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=")
    #expect(key.publicKey.fingerprint == "SHA256:Vkdap1RjR0wChd9dvyvKtz2mUTWIOem3dIGy6rEHcIw")
    let verification = SignedFile.verify(file) { $0 == key.publicKey ? "ada" : nil }
    #expect(verification.status == .trusted(name: "ada"))
    #expect(SignedFile.sign(verification.content, with: key) == file)
  }

  /// Removing the three lines gives back exactly the signed bytes.
  @Test func theBlockIsThreeCommentLinesAtTheEnd() {
    let signed = SignedFile.sign(Self.workflow, with: Self.key)
    let text = String(decoding: signed, as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(lines.suffix(3).allSatisfy { $0.hasPrefix("# flow-signature") })
    #expect(Array(signed.prefix(Self.workflow.count)) == Self.workflow)
    #expect(SignedFile.verify(Self.workflow) { _ in nil }.status == .unsigned)
  }

  /// Every byte of a signed file, each changed two ways (the lowest bit, and the highest, which makes
  /// invalid UTF-8): the file is tampered or malformed, never trusted, unknown or unsigned.
  @Test func oneChangedByteAnywhereIsNeverAccepted() {
    let signed = SignedFile.sign(Self.workflow, with: Self.key)
    var accepted: [String] = []
    for index in signed.indices {
      for mask: UInt8 in [0x01, 0x80] {
        var changed = signed
        changed[index] ^= mask
        let status = SignedFile.verify(changed) { $0 == Self.key.publicKey ? "ada" : nil }.status
        if status != .tampered, status != .malformed { accepted.append("byte \(index) ^ \(mask): \(status.id)") }
      }
    }
    #expect(accepted.isEmpty, "\(accepted.prefix(10))")
    #expect(signed.count > 300)
  }

  @Test func malformedBlocks() throws {
    let signed = String(decoding: SignedFile.sign(Self.workflow, with: Self.key), as: UTF8.self)
    // Something after the block.
    let appended = Array((signed + "steps: []\n").utf8)
    #expect(SignedFile.verify(appended) { _ in nil }.status == .malformed)
    // Only part of a block.
    let partial = Array((String(decoding: Self.workflow, as: UTF8.self) + "# flow-signature: ed25519\n").utf8)
    #expect(SignedFile.verify(partial) { _ in nil }.status == .malformed)
    // A non-canonical spelling of the same key (its unused low bits set) is not the key.
    var lines = signed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let keyLine = try #require(lines.firstIndex { $0.hasPrefix("# flow-signature-key: ") })
    var key = Array(lines[keyLine])
    let last = key.count - 2  // before the '=': its two low bits are not part of the key
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    key[last] = alphabet[try #require(alphabet.firstIndex(of: key[last])) ^ 1]
    lines[keyLine] = String(key)
    let respelt = Array(lines.joined(separator: "\n").utf8)
    #expect(SignedFile.verify(respelt) { _ in "ada" }.status == .malformed)
  }

  @Test func contentWithoutAFinalLineBreakGetsOne() {
    let signed = SignedFile.sign(Array("flow: 1\nsteps: []".utf8), with: Self.key)
    #expect(SignedFile.verify(signed) { _ in "ada" }.status == .trusted(name: "ada"))
    #expect(SignedFile.verify(signed) { _ in nil }.content == Array("flow: 1\nsteps: []\n".utf8))
  }

  @Test func publicKeysReadAsLinesOrBareKeys() throws {
    let line = Self.key.publicKey.line(name: "ada")
    let (parsed, name) = try #require(PublicKey.parse(line))
    #expect(parsed == Self.key.publicKey)
    #expect(name == "ada")
    #expect(PublicKey.parse(Self.key.publicKey.base64)?.key == Self.key.publicKey)
    #expect(PublicKey.parse("flow-ed25519 not-a-key ada") == nil)
    #expect(PublicKey.parse("") == nil)
  }
}
