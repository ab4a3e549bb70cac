import FlowHistory
import FlowLibrary
import Testing

/// Secrets are masked wherever they appear in what history keeps.
struct RedactorTests {
  @Test func masksEveryOccurrenceAndTheURLForm() {
    let redact = Redactor(secrets: ["s3cr3t pass", "tok"])
    #expect(redact("a s3cr3t pass and s3cr3t pass") == "a *** and ***")
    #expect(redact("https://x.test/?p=s3cr3t%20pass") == "https://x.test/?p=***")
    #expect(redact("token") == "***en")
    #expect(Redactor.none("s3cr3t pass") == "s3cr3t pass")
  }

  @Test func longerSecretsFirst() {
    let redact = Redactor(secrets: ["abc", "abcdef"])
    #expect(redact("xabcdefx") == "x***x")
  }

  /// A secret that straddles the cut is masked before the text is cut, so no part of it survives.
  @Test func excerptMasksBeforeCutting() {
    let secret = "0123456789ABCDEF"
    let redact = Redactor(secrets: [secret])
    let text = String(repeating: "x", count: 10) + secret + String(repeating: "y", count: 1000)
    let excerpt = redact.excerpt(text, limit: 20)
    #expect(excerpt == "xxxxxxxxxx***yyyyyy…")
    #expect(excerpt.count == 20)
    #expect(!excerpt.contains("0123"))
    #expect(redact.excerpt("short", limit: 20) == "short")
    #expect(Redactor.none.excerpt(String(repeating: "z", count: 30), limit: 10) == "zzzzzzzzz…")
  }

  @Test func secretSoundingNames() {
    for name in ["GITHUB_TOKEN", "api_key", "DB_PASSWORD", "client_secret", "GPG_PASSPHRASE"] {
      #expect(Redactor.isSecretName(name), "\(name)")
    }
    for name in ["HOME", "USER", "LANG"] { #expect(!Redactor.isSecretName(name), "\(name)") }
  }
}
