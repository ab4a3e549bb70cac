import FlowDiagnostics
import FlowSharing
import FlowTestSupport
import FlowYAML
import Foundation
import Testing

/// The secrets check against a corpus: credentials it must find where they sit, and lookalikes it must
/// leave alone (URLs with long paths, hashes in text, UUIDs that are ids).
struct SecretScannerTests {
  static func scan(_ text: String, allowed: Set<String> = []) -> [SecretScanner.Finding] {
    SecretScanner().scan(YAMLDocument.load(SourceFile(path: "corpus.yml", text: text)), allowed: allowed)
  }

  /// A literal credential, and the path the refusal names.
  static let truePositives: [(String, String)] = [
    (
      "  - get-url:\n      url: https://api.example.com\n      headers:\n        Authorization: Bearer abcdef0123456789xyz\n",
      "steps[1].get-url.headers.Authorization"
    ),
    (
      "  - get-url:\n      url: https://api.example.com\n      headers:\n        authorization: Basic dXNlcjpwYXNz\n",
      "steps[1].get-url.headers.authorization"
    ),
    ("  - dictionary:\n      password: hunter2hunter2\n", "steps[1].dictionary.password"),
    ("  - dictionary:\n      api_key: 3f9a8b7c6d5e\n", "steps[1].dictionary.api_key"),
    ("  - dictionary:\n      clientSecret: s3cr3t-value\n", "steps[1].dictionary.clientSecret"),
    // A number is a literal too: a PIN, a numeric key.
    ("  - dictionary:\n      password: 73914862\n", "steps[1].dictionary.password"),
    (
      "  - get-url:\n      url: https://api.example.com\n      headers:\n        X-API-Key: 4417123456789113\n",
      "steps[1].get-url.headers.X-API-Key"
    ),
    // A Raindrop test token (a UUID) where a credential goes.
    ("  - dictionary:\n      token: 8b0a8d36-2b63-4a26-9b43-1c2d3e4f5a6b\n", "steps[1].dictionary.token"),
    ("  - text: \"export RAINDROP_TOKEN=8b0a8d36-2b63-4a26-9b43-1c2d3e4f5a6b\"\n", "steps[1].text"),
    (
      "  - get-url: \"https://api.raindrop.io/rest/v1/raindrops/0?access_token=8b0a8d36-2b63-4a26\"\n",
      "steps[1].get-url"
    ),
    ("  - show: \"curl -H 'Authorization: Bearer 8b0a8d36-2b63-4a26-9b43-1c2d3e4f5a6b'\"\n", "steps[1].show"),
    ("  - get-url: https://ada:correct-horse@example.com/feed\n", "steps[1].get-url"),
    ("  - text: ghp_1234567890abcdefghijABCDEFGHIJ123456\n", "steps[1].text"),
    ("  - text: AKIAIOSFODNN7EXAMPLE\n", "steps[1].text"),
    ("  - text: \"sk-proj-4f8Kq2LmN7pR9sT1vW3xY5zA\"\n", "steps[1].text"),
    ("  - text: \"-----BEGIN OPENSSH PRIVATE KEY-----\"\n", "steps[1].text"),
    ("  - get-url: https://example.com/hook?sig=Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZg7Kp\n", "steps[1].get-url"),
    ("  - list: [a, wJalrXUtnFEMI7K7MDENGbPxRfiCY3EXAMPLEKEY9q]\n", "steps[1].list[2]"),
    ("  - show: hi   # token=Zq8Lm2Nx7Rv4Tw1Ys9Ub3\n", "comment:3"),
  ]

  static let falsePositives: [String] = [
    // Long URL paths, query strings without credentials.
    "  - get-url: https://www.example.com/2024/11/Swift-Concurrency-In-Depth-Part-2/comments?page=2&sort=newest\n",
    "  - open-url: https://github.com/apple/swift-argument-parser/blob/main/Sources/ArgumentParser/Parsable%20Types/ParsableCommand.swift\n",
    // Hashes in text.
    "  - show: \"fixed in commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39\"\n",
    "  - show: \"sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"\n",
    // UUIDs that are ids.
    "  - dictionary:\n      collection-id: 8b0a8d36-2b63-4a26-9b43-1c2d3e4f5a6b\n",
    "  - get-url: https://api.example.com/items/8b0a8d36-2b63-4a26-9b43-1c2d3e4f5a6b\n",
    // Credentials by reference: what the file should hold.
    "  - get-url:\n      url: https://api.example.com\n      headers:\n        Authorization: Bearer ${env.API_TOKEN}\n",
    "  - dictionary:\n      token: ${env.RAINDROP_TOKEN}\n",
    "  - dictionary:\n      password: ask\n",
    // Short numbers and booleans under credential names are settings, not credentials.
    "  - dictionary:\n      token-limit: 4096\n      password-required: true\n",
    // Words about credentials, not credentials.
    "  - ask: Your API key?\n",
    "  - dictionary:\n      password-hint: the usual one\n",
    "  - text: \"Set RAINDROP_TOKEN= before running this.\"\n",
    // Long names and slugs.
    "  - text: thisIsAVeryLongIdentifierNameWithoutDigits\n",
    "  - text: raindrop-bookmarks-export-2026-11-23-final\n",
    "  - text: getBookmarksForCollection2024AndMore\n",
    "  - show: \"Saved ${saved.title} (${saved.link.host}) at ${now}\"\n",
  ]

  @Test(arguments: 0..<truePositives.count)
  func findsCredentials(_ index: Int) {
    let (steps, path) = Self.truePositives[index]
    let findings = Self.scan("flow: 1\nsteps:\n" + steps)
    #expect(findings.map(\.path.description) == [path], "\(steps)")
    // Named, it passes.
    #expect(Self.scan("flow: 1\nsteps:\n" + steps, allowed: [path]).isEmpty)
  }

  @Test(arguments: falsePositives)
  func leavesLookalikesAlone(_ steps: String) {
    let findings = Self.scan("flow: 1\nsteps:\n" + steps)
    #expect(findings.isEmpty, "\(findings.map(\.reason))")
  }

  @Test func inputsNamedLikeCredentialsAndSecretDefaults() {
    let text = """
      flow: 1
      input:
        api-key:
          type: text
          default: abc123def456
        token:
          type: text
          secret: true
          default: ZmFrZVRva2VuVmFsdWUxMjM0NTY3ODk
        limit:
          type: number
          default: 10
        pin-code:
          type: text
        password:
          type: number
          default: 20251123
      steps:
        - show: ${input.limit}

      """
    let findings = Self.scan(text)
    // The secret input's default is dropped by export, so it is not reported.
    #expect(findings.map(\.path.description) == ["input.api-key.default", "input.password.default"])
  }

  @Test func embeddedWorkflowsAreNamedAsTheExportWillHaveThem() {
    let findings = SecretScanner().scan(
      YAMLDocument.load(
        SourceFile(
          path: "child.yml",
          text: "flow: 1\nsteps:\n  - dictionary:\n      password: hunter2hunter2\n# token=Zq8Lm2Nx7Rv4Tw1Ys9Ub3\n")),
      prefix: ["workflows", "greet.yml"])
    // A comment's line is its own file's: the prefix tells it from the same line of the file that runs it.
    #expect(
      findings.map(\.path.description) == [
        #"workflows["greet.yml"].steps[1].dictionary.password"#, #"workflows["greet.yml"].comment:5"#,
      ])
  }

  @Test func theLeakyFileGolden() throws {
    let url = testDirectory().appendingPathComponent("Secrets/leaky.yml")
    let file = SourceFile(path: "Secrets/leaky.yml", bytes: Array(try Data(contentsOf: url)))
    let diagnostics = SecretScanner.diagnostics(SecretScanner().scan(YAMLDocument.load(file)))
    assertGolden(DiagnosticRenderer(colors: false).render(diagnostics), named: "leaky.txt")
    let clean = testDirectory().appendingPathComponent("Secrets/clean.yml")
    let cleanFile = SourceFile(path: "Secrets/clean.yml", bytes: Array(try Data(contentsOf: clean)))
    #expect(SecretScanner().scan(YAMLDocument.load(cleanFile)).isEmpty)
  }
}
