import FlowDiagnostics
import Foundation
import Testing

/// TextOrder, CollationOrder and UnicodeFolding give what the Foundation calls they replace give
/// (`compare(_:options: [.caseInsensitive, .numeric])`, `caseInsensitiveCompare`, `range(of:options:)`,
/// `localizedStandardCompare`, `precomposedStringWithCompatibilityMapping`), on texts built to part them:
/// case, digits with and without leading zeros, accents precomposed and not, folds that change length.
struct TextOrderTests {
  static let pieces: [String] = [
    "", "a", "A", "b", "Z", "_", " ", "-", ".", "0", "1", "9", "01", "007", "10", "é", "E\u{301}", "ß", "SS",
    "ς", "Σ", "ſ", "K", "ﬀ", "٣", "²", "😀", "\u{FFFD}", "ǅ", "Ꭰ", "ꭰ", "İ", "ı", "Ω", "ω",
  ]

  /// Letters whose folding is more than one letter ("ß" is "ss") or another letter ("ſ" is "s"): there
  /// CoreFoundation matches only whole folds, and orders "ſé" after "ßa"; flow matches the folded text, so
  /// "Maß" contains "s", as "Mass" does (``documentedDifferences()``).
  static let expanding: Set<String> = ["ß", "ſ", "ﬀ"]

  /// Every text of one or two pieces, and of two around an "x", without the expanding letters.
  static var texts: [String] {
    var all: [String] = []
    let pieces = Self.pieces.filter { !expanding.contains($0) }
    for a in pieces {
      for b in pieces {
        all.append(a + b)
        all.append(a + "x" + b)
      }
    }
    return all
  }

  @Test func comparingMatchesFoundation() {
    let texts = Self.texts
    var compared = 0
    for (index, lhs) in texts.enumerated() where index % 3 == 0 {
      for rhs in texts.dropFirst(index % 7).striding(by: 5) {
        compared += 1
        let expected = lhs.compare(rhs, options: [.caseInsensitive, .numeric])
        #expect(TextOrder.compare(lhs, rhs) == expected, "\(Array(lhs.unicodeScalars)) \(Array(rhs.unicodeScalars))")
      }
    }
    #expect(compared > 40_000)
  }

  /// Keys, made once for a sort, order as their texts do.
  @Test func keysCompareAsTheirTexts() {
    let texts = Self.texts.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
    for lhs in texts {
      for rhs in texts.striding(by: 9) {
        #expect(TextOrder.compare(TextOrder.Key(lhs), TextOrder.Key(rhs)) == TextOrder.compare(lhs, rhs))
        let collated = CollationOrder.compare(lhs, rhs)
        #expect((CollationOrder.Key(lhs) < CollationOrder.Key(rhs)) == (collated == .orderedAscending))
        #expect((CollationOrder.Key(lhs) == CollationOrder.Key(rhs)) == (collated == .orderedSame))
      }
    }
  }

  @Test func sameButForCaseMatchesFoundation() {
    for lhs in Self.texts {
      for rhs in Self.pieces where !Self.expanding.contains(rhs) {
        let expected = lhs.caseInsensitiveCompare(rhs) == .orderedSame
        #expect(TextOrder.sameIgnoringCase(lhs, rhs) == expected, "\(lhs) \(rhs)")
      }
    }
  }

  @Test func containingMatchesFoundation() {
    for text in Self.texts {
      for sought in Self.pieces where !Self.expanding.contains(sought) {
        let expected = text.range(of: sought, options: .caseInsensitive) != nil
        #expect(
          TextOrder.contains(text, ignoringCase: sought) == expected,
          "\(Array(text.unicodeScalars)) \(Array(sought.unicodeScalars))")
      }
    }
  }

  @Test func documentedDifferences() {
    #expect(TextOrder.sameIgnoringCase("Straße", "STRASSE"))
    #expect(TextOrder.compare("ſ", "s") == .orderedSame)
    #expect(TextOrder.compare("ﬀ", "FF") == .orderedSame)
    #expect(TextOrder.contains("Maß", ignoringCase: "s"))
    #expect(!"Maß".contains("s") && "Maß".range(of: "s", options: .caseInsensitive) == nil)
    #expect(TextOrder.compare("ßa", "ſé") == .orderedDescending)
  }

  /// The root locale's collation, which the sort of a list of titles uses; Foundation's
  /// `localizedStandardCompare` in the POSIX locale sorts them the same.
  @Test func titlesSortAsFoundationsStandardOrder() {
    let titles = [
      "Zebra", "apple", "Apple", "éclair", "Eclair", "eclair", "item 10", "Item 9", "item 2", "_underscore",
      "ábaco", "abacus", "Ärger", "Arm", "zürich", "Zurich", "1984", "2001", "10 things", "Ωmega", "omega",
    ]
    let ours = titles.sorted { CollationOrder.compare($0, $1) == .orderedAscending }
    let foundations = titles.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    #expect(ours == foundations)
    #expect(CollationOrder.compare("a", "a") == .orderedSame)
    #expect(CollationOrder.compare("item 9", "item 10") == .orderedAscending)
  }

  @Test func compatibilityFormsMatchFoundation() {
    for text in Self.texts + ["ｂｕｌｋ", "ﬁle", "①", "Ⅻ", "ｶ", "㎏"] {
      #expect(
        UnicodeFolding.compatibilityComposed(text) == text.precomposedStringWithCompatibilityMapping,
        "\(Array(text.unicodeScalars))")
    }
  }

  @Test func paddingCutsOrFillsToAWidth() {
    #expect(PlainText.padded("abc", to: 5) == "abc  ")
    #expect(PlainText.padded("abcdef", to: 4) == "abcd")
    #expect(PlainText.padded("é👩‍👩‍👧", to: 3) == "é👩‍👩‍👧 ")
    #expect(PlainText.padded("", to: 0) == "")
  }

  /// A file operation's error reads as the system's words for its errno and the path.
  @Test func aFileErrorsReasonIsItsErrnoAndPath() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("reason-\(UUID().uuidString)")
    try Data("x".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    do {
      try FileManager.default.createDirectory(
        at: file.appendingPathComponent("below"), withIntermediateDirectories: true)
      Issue.record("a folder was made below a file")
    } catch {
      #expect(error.reason.hasPrefix("Not a directory ("), "\(error.reason)")
      #expect(error.reason.contains(file.lastPathComponent))
    }
    struct Plain: Error, CustomStringConvertible { var description: String { "it broke" } }
    #expect(Plain().reason == "it broke")
  }
}

extension Collection {
  fileprivate func striding(by step: Int) -> [Element] {
    enumerated().filter { $0.offset % step == 0 }.map(\.element)
  }
}
