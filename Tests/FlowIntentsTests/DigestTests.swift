import FlowDiagnostics
import FlowIntents
import Foundation
import Testing

/// SHA-256 and SHA-512 are libsodium's: the examples of FIPS 180-2 (NIST), and the content hash equals
/// what `sha256sum` prints, so a person can check it by hand. MD5 and SHA-1 are checked, with the other
/// two, through the `hash` action (FlowBasicsTests).
struct DigestTests {
  static let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)

  @Test func sha256NISTVectors() {
    #expect(Digest.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      Digest.sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(Digest.sha256Hex(Self.million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func sha512NISTVectors() {
    let vectors: [(String, [UInt8])] = [
      (
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
        []
      ),
      (
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        Array("abc".utf8)
      ),
      (
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
        Array(
          "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            .utf8)
      ),
      (
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
        Self.million
      ),
    ]
    for (expected, message) in vectors { #expect(Hex.encode(Digest.sha512(message)) == expected) }
  }

  /// Lengths around the 55/56/64-byte padding boundaries and a large file, against the real tool.
  @Test func agreesWithSha256sum() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var generator = SystemRandomNumberGenerator()
    let lengths = [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 1_048_577]
    var expected: [String: String] = [:]
    for length in lengths {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let file = directory.appendingPathComponent("\(length)")
      try Data(bytes).write(to: file)
      expected[file.path] = Digest.sha256Hex(bytes)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = lengths.map { directory.appendingPathComponent("\($0)").path }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = output.split(separator: "\n")
    #expect(lines.count == lengths.count)
    for line in lines {
      let parts = line.split(separator: " ", maxSplits: 1)
      let path = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " *"))
      #expect(expected[path] == String(parts[0]), "\(path)")
    }
  }
}
