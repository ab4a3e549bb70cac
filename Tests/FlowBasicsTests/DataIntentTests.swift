import FlowBasics
import FlowIntents
import FlowTestSupport
import Testing

/// The data actions beyond their examples: digests across every padding boundary, CSV both ways.
struct DataIntentTests {
  static let registry = IntentRegistry(catalogs: [BasicsCatalog.self])

  static func run(_ id: String, _ values: [String: FlowValue]) async throws -> FlowValue {
    try await registry.descriptor(for: id).run(values: values, context: IntentContext(prompter: ScriptedPrompter([])))
      .value
  }

  /// The digests of "", "a", … 299 × "a" (every length around the 55/56/64 and 111/112/128-byte block
  /// edges), one per line, digested again: one figure per algorithm, from Python's hashlib.
  @Test(arguments: [
    ("md5", "009b64c5561ba02a69c3899bda8aa216"),
    ("sha1", "52d86d7155e25b095f1024db13a92c0ce53d7593"),
    ("sha256", "09331b5d06f1cc5a31f9ec70ccdb16eb2982d6e9eb25f71c1bee08ef4756a37a"),
    (
      "sha512",
      "d159afd90f33be0f95c4015bb86e6d7e04b36b43f64ac6f8eab5307ea93b528896c08fcba701b303131425a72b74b7621c41d1e3ccce51c2b3137a2f238ccd6c"
    ),
  ])
  func digestsMatchHashlibAtEveryLength(_ algorithm: String, _ expected: String) async throws {
    var digests: [String] = []
    for length in 0..<300 {
      let digest = try await Self.run(
        "hash", ["input": .text(String(repeating: "a", count: length)), "algorithm": .text(algorithm)])
      digests.append(digest.text)
    }
    let combined = try await Self.run(
      "hash", ["input": .text(digests.joined(separator: "\n")), "algorithm": .text(algorithm)])
    #expect(combined == .text(expected))
  }

  @Test func hashesTheUTF8Bytes() async throws {
    #expect(
      try await Self.run("hash", ["input": "é✓"])
        == "1e77cb71920ad52885fab06465a5fcf2e5f98c0382aab36202689431b93b9fb3")
  }

  /// What make-csv writes, parse-csv reads back: separators, quotes and line breaks in fields.
  @Test func csvRoundTrips() async throws {
    let rows: FlowValue = [
      .dictionary(["title": "a, b", "note": "say \"hi\"\nthen leave", "tags": ""]),
      .dictionary(["title": "plain", "note": "", "tags": "x;y"]),
    ]
    let text = try await Self.run("make-csv", ["list": rows])
    #expect(try await Self.run("parse-csv", ["text": text]) == rows)
  }

  /// One column and an empty value: an empty line would be skipped when read back, losing the row.
  @Test func csvKeepsARowOfOneEmptyField() async throws {
    let rows: FlowValue = [.dictionary(["note": ""]), .dictionary(["note": "x"])]
    let text = try await Self.run("make-csv", ["list": rows])
    #expect(text == "note\n\"\"\nx\n")
    #expect(try await Self.run("parse-csv", ["text": text]) == rows)
  }

  @Test func formatJSONWritesWhatParseJSONReads() async throws {
    let value: FlowValue = .dictionary(["z": [1, 2.5, true, .nothing], "a": .dictionary(["b": "c\n\"d\""])])
    for style in ["pretty", "compact"] {
      let text = try await Self.run("format-json", ["input": value, "style": .text(style)])
      #expect(try await Self.run("parse-json", ["text": text]) == value)
    }
  }
}
