import FlowDiagnostics
import Foundation
import Testing

/// PlainText's operations give what the Foundation calls they replace give, on text built from the
/// scalars where the two could part: every kind of space and line break, combining marks, CRLF, non-ASCII.
struct PlainTextTests {
  static let pieces: [String] = [
    " ", "\t", "\n", "\r\n", "\r", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{200B}", "\u{FEFF}",
    "\u{0B}", "\u{0C}", "a", "é", "e\u{301}", "'", "%", "${", "\\", "ß", "👩‍👩‍👧", "x\u{301}",
  ]

  /// Every string of up to three pieces.
  static var texts: [String] {
    var all = [""]
    for a in pieces {
      all.append(a)
      for b in pieces {
        all.append(a + b)
        for c in pieces { all.append(a + "b" + b + c) }
      }
    }
    return all
  }

  @Test func trimmingMatchesFoundation() {
    for text in Self.texts {
      #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
      #expect(
        text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
        "\(Array(text.unicodeScalars))")
      #expect(
        text.trimmingScalars(where: PlainText.isNewline) == text.trimmingCharacters(in: .newlines),
        "\(Array(text.unicodeScalars))")
    }
  }

  /// Every scalar, in the sets as Foundation's `CharacterSet`s hold it.
  @Test func scalarSetsMatchFoundation() {
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      #expect(PlainText.isSpace(scalar) == CharacterSet.whitespaces.contains(scalar), "\(value)")
      #expect(PlainText.isNewline(scalar) == CharacterSet.newlines.contains(scalar), "\(value)")
    }
    for byte in UInt8(0)...0x7F {
      let scalar = Unicode.Scalar(byte)
      #expect(PlainText.isQueryAllowed(byte) == CharacterSet.urlQueryAllowed.contains(scalar), "\(byte)")
    }
  }

  /// The targets flow replaces: ASCII punctuation and line breaks, and text a person wrote.
  @Test func replacingMatchesFoundationForFlowsTargets() {
    let targets = ["'", "%", "${", "\\", "\n", "\r\n", "&", "<", "-", ".", "|", "ab", "é"]
    for text in Self.texts + ["aaaa", "a'b'c", "%%%", "${${", "éé"] {
      for target in targets where !text.contains("\u{301}") {
        #expect(
          text.replacingEvery(target, with: "<>") == text.replacingOccurrences(of: target, with: "<>"),
          "\(Array(text.unicodeScalars)) \(target)")
      }
    }
    #expect("abc".replacingEvery("", with: "x") == "abc")
  }

  @Test func replacingIsLiteralWhereFoundationWouldJoinAMark() {
    // Foundation leaves a quote followed by a combining mark alone; a shell would still end its string
    // there, so flow's quoting replaces it.
    #expect("'\u{301}".replacingEvery("'", with: "''") == "''\u{301}")
  }
}

/// PathText reads paths as `NSString` does.
struct PathTextTests {
  static var paths: [String] {
    // NSString's slash fixing traps on non-ASCII text with a doubled slash: that is compared without.
    let parts = ["", "/", "//", "a", "b.txt", ".profile", "..", ".", "c.", "x.tar.gz"]
    var all: [String] = ["/home/é d/ça.txt", "é/d", "/é.ü/", "ü.é", "/a/\u{301}b/c", "/a/b.\u{301}"]
    for a in parts {
      for b in parts {
        for c in parts { all.append(a + b + c) }
        all.append("/" + a + "/" + b)
      }
    }
    return all
  }

  @Test func matchesNSString() {
    #expect(PathText.deletingLastComponent("a/") == "")
    for path in Self.paths {
      let ns = path as NSString
      #expect(PathText.lastComponent(path) == ns.lastPathComponent, "\(path)")
      // NSString traps on a relative path of one component ("a", "a/"): compared on absolute ones.
      if path.hasPrefix("/") {
        #expect(PathText.deletingLastComponent(path) == ns.deletingLastPathComponent, "\(path)")
      }
      #expect(PathText.pathExtension(path) == ns.pathExtension, "\(path)")
      for component in ["", "x", "/y", "z/"] {
        #expect(PathText.appendingComponent(component, to: path) == ns.appendingPathComponent(component), "\(path)")
      }
    }
  }
}
