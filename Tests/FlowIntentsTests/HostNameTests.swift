import FlowIntents
import Foundation
import Testing

/// The card names a host by the address the resolver connects to, one spelling for each.
struct HostNameTests {
  @Test(arguments: [
    ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"),
    ("0x7F000001", "127.0.0.1"), ("127.0.0.1", "127.0.0.1"), ("[0:0:0:0:0:0:0:1]", "[::1]"), ("[::1]", "[::1]"),
    ("[2001:DB8:0:0::1]", "[2001:db8::1]"), ("[::ffff:7f00:1]", "[::ffff:127.0.0.1]"), ("Example.COM.", "example.com"),
    ("deadbeef.example", "deadbeef.example"), ("1.2.3.4.5", "1.2.3.4.5"), ("0x1g", "0x1g"),
  ])
  func everySpellingOfAnAddressIsOne(written: String, canonical: String) {
    #expect(HostName.canonical(written) == canonical)
  }

  /// The hosts a literal `get-url` contacts, as the card and the run-time check read them.
  @Test func aLiteralURLsHostIsCanonical() {
    let access = NetworkAccess.hostOfParameter("url")
    #expect(access.hosts(for: ["url": .text("http://2130706433/")]) == ["127.0.0.1"])
    #expect(access.hosts(for: ["url": .text("http://0x7f.1/x")]) == ["127.0.0.1"])
    #expect(access.hosts(for: ["url": .text("http://[0::1]:8080/")]) == ["[::1]"])
  }
}
