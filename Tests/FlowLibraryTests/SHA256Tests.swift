import FlowLibrary
import Foundation
import Testing

/// The content hash equals what `sha256sum` prints, so a person can check it by hand.
struct SHA256Tests {
  @Test func knownVectors() {
    #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
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
      expected[file.path] = SHA256.hex(bytes)
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
