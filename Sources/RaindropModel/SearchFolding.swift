import FlowDiagnostics
import FoundationEssentials
import Glibc

/// Text as a search compares it: case and accents folded, as Raindrop's search ignores both ("Café" is found
/// by "cafe", "ÉCOLE" by "école"). A word then matches where its folded bytes occur in a field's folded
/// bytes: a plain substring test, which SQLite's `instr` does exactly as ``contains(_:_:)`` does, so that
/// the local store can search in SQL over columns folded when a bookmark is written, and agree with
/// ``SearchQuery/matches(_:)`` to the byte.
public enum SearchFolding {
  /// Between tags in ``tags(_:)``: a control character no tag a person types holds.
  public static let tagSeparator = "\u{1F}"

  /// `text` without case or diacritics. ASCII is lower-cased byte by byte; anything else is decomposed, its
  /// combining diacritical marks (U+0300–U+036F: the accents of Latin, Greek and Cyrillic letters) dropped,
  /// case-folded and composed again (``UnicodeFolding``). Foundation's `folding(options:)` differs on a few
  /// hundred rare scalars (marks of other scripts, which it sometimes drops, and Cherokee's case); the local
  /// store refolds its columns when this changes (its schema version 4).
  public static func fold(_ text: String) -> String {
    var ascii = true
    var upper = false
    for byte in text.utf8 {
      if byte >= 0x80 {
        ascii = false
        break
      }
      if byte >= 0x41 && byte <= 0x5A { upper = true }
    }
    if ascii {
      guard upper else { return text }
      return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
    let bare = UnicodeFolding.decomposed(Array(text.utf16)).filter { !(0x300...0x36F).contains($0) }
    return String(decoding: UnicodeFolding.composed(UnicodeFolding.folded(bare)), as: UTF16.self)
  }

  /// The tags folded and each enclosed in ``tagSeparator``s (`␟swift␟café␟`, empty for no tags): a word
  /// occurs in it where it occurs in a tag, and a whole tag `t` where `␟t␟` does.
  public static func tags(_ tags: [String]) -> String {
    guard !tags.isEmpty else { return "" }
    var joined = tagSeparator
    for tag in tags {
      joined += fold(tag)
      joined += tagSeparator
    }
    return joined
  }

  /// Whether the folded `needle` occurs in the folded `haystack`, byte for byte (an empty needle occurs
  /// everywhere, as in SQLite's `instr`).
  public static func contains(_ haystack: String, _ needle: String) -> Bool {
    var haystack = haystack
    var needle = needle
    return haystack.withUTF8 { outer in
      needle.withUTF8 { inner in
        guard !inner.isEmpty else { return true }
        guard inner.count <= outer.count, let base = outer.baseAddress, let sought = inner.baseAddress else {
          return false
        }
        // Each place the first byte occurs (memchr), compared whole (memcmp).
        let first = Int32(inner[0])
        let last = outer.count - inner.count
        var start = 0
        while start <= last {
          guard let found = memchr(base + start, first, last - start + 1) else { return false }
          let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
          if memcmp(base + offset, sought, inner.count) == 0 { return true }
          start = offset + 1
        }
        return false
      }
    }
  }
}

/// A bookmark's searchable fields, folded (``SearchFolding``): what a search compares words with. The local
/// store keeps the same strings in columns of its own.
public struct SearchFields: Sendable, Hashable {
  public var title: String
  public var excerpt: String
  public var note: String
  public var link: String
  public var domain: String
  /// ``SearchFolding/tags(_:)``.
  public var tags: String

  public init(title: String, excerpt: String, note: String, link: String, domain: String, tags: [String]) {
    self.title = SearchFolding.fold(title)
    self.excerpt = SearchFolding.fold(excerpt)
    self.note = SearchFolding.fold(note)
    self.link = SearchFolding.fold(link)
    self.domain = SearchFolding.fold(domain)
    self.tags = SearchFolding.tags(tags)
  }

  public init(_ bookmark: Bookmark) {
    self.init(
      title: bookmark.title, excerpt: bookmark.excerpt, note: bookmark.note, link: bookmark.link,
      domain: bookmark.domain, tags: bookmark.tags)
  }
}
