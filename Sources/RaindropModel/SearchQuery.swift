import FoundationEssentials

/// Raindrop's search syntax (reference §5), parsed: `apple "exact phrase" -word #tag #"multi word" match:OR
/// type:video important:true ❤️ notag:true created:>2024-01 title:x link:x`.
///
/// The REST backend sends the text as it is; the local store parses it with this type and evaluates it with
/// ``matches(_:)``, so that both backends understand the same syntax.
public struct SearchQuery: Sendable, Hashable {
  public var terms: [Term]
  /// `match:OR`: a bookmark matches when any positive term does. Negated terms always exclude.
  public var matchAny: Bool

  public struct Term: Sendable, Hashable {
    public var negated: Bool
    public var kind: Kind

    public init(_ kind: Kind, negated: Bool = false) {
      self.kind = kind
      self.negated = negated
    }
  }

  public enum Kind: Sendable, Hashable {
    /// A word, anywhere in title, excerpt, note, link, domain or tags.
    case word(String)
    /// `"exact phrase"`, anywhere the same places.
    case phrase(String)
    /// `#tag` or `#"multi word"`: has the tag (ignoring case).
    case tag(String)
    /// `title:x`, `excerpt:x`, `note:x`, `link:x`, `domain:x`: the words within one field.
    case field(Field, String)
    /// `type:video`; nil for a type Raindrop does not have, which matches nothing.
    case type(BookmarkType?)
    /// `important:true` or `❤️`.
    case important(Bool)
    /// `notag:true`.
    case noTags(Bool)
    /// `created:2024-05-01`, `created:>2024-05`, `created:<2024`.
    case created(DateFilter)
    /// `lastUpdate:2024-05-01` (same forms as `created:`).
    case lastUpdate(DateFilter)
    /// A flag the local store has nothing for (`file:true`, `reminder:true`, `broken:true`, …): true for no one.
    case unsupported(String)
  }

  public enum Field: String, Sendable, Hashable, CaseIterable {
    case title, excerpt, note, link, domain
  }

  /// A day, month or year, and whether to match on, before or after it (in UTC).
  public struct DateFilter: Sendable, Hashable {
    public enum Comparison: Sendable, Hashable { case on, before, after }
    public var comparison: Comparison
    /// The first instant of the period.
    public var start: Date
    /// The first instant after the period.
    public var end: Date

    /// Parses `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, with an optional `<` or `>` in front.
    public init?(_ text: String) {
      var rest = Substring(text)
      comparison = .on
      if rest.hasPrefix("<") {
        comparison = .before
        rest = rest.dropFirst()
      } else if rest.hasPrefix(">") {
        comparison = .after
        rest = rest.dropFirst()
      }
      let parts = rest.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
      guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
      let numbers = parts.compactMap { $0 }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
      let year = numbers[0]
      let month = numbers.count > 1 ? numbers[1] : 1
      let day = numbers.count > 2 ? numbers[2] : 1
      guard (1...12).contains(month), (1...31).contains(day),
        let start = calendar.date(from: DateComponents(year: year, month: month, day: day))
      else { return nil }
      let unit: Calendar.Component = numbers.count == 1 ? .year : numbers.count == 2 ? .month : .day
      guard let end = calendar.date(byAdding: unit, value: 1, to: start) else { return nil }
      self.start = start
      self.end = end
    }

    public func matches(_ date: Date) -> Bool {
      switch comparison {
      case .on: date >= start && date < end
      case .before: date < start
      case .after: date >= end
      }
    }
  }

  public init(terms: [Term], matchAny: Bool = false) {
    self.terms = terms
    self.matchAny = matchAny
  }

  /// Parses the search text. Anything that is not an operator is a word, so parsing never fails.
  public init(parsing text: String) {
    var terms: [Term] = []
    var matchAny = false
    for token in Self.tokenize(text) {
      var raw = token.text
      var negated = false
      if raw.hasPrefix("-") && raw.count > 1 && !token.quoted {
        negated = true
        raw.removeFirst()
      }
      if token.quoted {
        terms.append(Term(.phrase(raw), negated: token.negatedPhrase))
        continue
      }
      if raw == "❤️" || raw == "❤" {
        terms.append(Term(.important(true), negated: negated))
        continue
      }
      if raw.hasPrefix("#") {
        let tag = Self.unquote(String(raw.dropFirst()))
        if !tag.isEmpty { terms.append(Term(.tag(tag), negated: negated)) }
        continue
      }
      if let colon = raw.firstIndex(of: ":") {
        let key = raw[..<colon].lowercased()
        let value = Self.unquote(String(raw[raw.index(after: colon)...]))
        if let kind = Self.operatorKind(key: key, value: value) {
          if case .unsupported("match") = kind {
            matchAny = value.lowercased() == "or"
          } else {
            terms.append(Term(kind, negated: negated))
          }
          continue
        }
      }
      terms.append(Term(.word(raw), negated: negated))
    }
    self.init(terms: terms, matchAny: matchAny)
  }

  public var isEmpty: Bool { terms.isEmpty }

  private static func operatorKind(key: String, value: String) -> Kind? {
    let truthy = value.lowercased() != "false"
    switch key {
    case "match": return .unsupported("match")
    case "type": return .type(BookmarkType(rawValue: value.lowercased()))
    case "important": return .important(truthy)
    case "notag": return .noTags(truthy)
    case "created": return DateFilter(value).map(Kind.created) ?? .unsupported("created:\(value)")
    case "lastupdate": return DateFilter(value).map(Kind.lastUpdate) ?? .unsupported("lastUpdate:\(value)")
    case "title", "excerpt", "note", "link", "domain":
      guard let field = Field(rawValue: key), !value.isEmpty else { return nil }
      return .field(field, value)
    case "file", "reminder", "broken", "highlights", "duplicate", "cache.status":
      return .unsupported("\(key):\(value)")
    default: return nil
    }
  }

  private struct Token {
    var text: String
    /// A whole token in quotes: a phrase.
    var quoted: Bool
    /// `-"phrase"`.
    var negatedPhrase: Bool
  }

  /// Splits on spaces outside quotes. `#"a b"` and `title:"a b"` stay one token with their quotes.
  private static func tokenize(_ text: String) -> [Token] {
    var tokens: [Token] = []
    var current = ""
    var inQuotes = false
    func flush() {
      defer { current = "" }
      guard !current.isEmpty else { return }
      if current.count >= 2, current.first == "\"", current.last == "\"" {
        tokens.append(Token(text: String(current.dropFirst().dropLast()), quoted: true, negatedPhrase: false))
      } else if current.count >= 3, current.hasPrefix("-\""), current.last == "\"" {
        tokens.append(Token(text: String(current.dropFirst(2).dropLast()), quoted: true, negatedPhrase: true))
      } else {
        tokens.append(Token(text: current, quoted: false, negatedPhrase: false))
      }
    }
    for character in text {
      if character == "\"" {
        inQuotes.toggle()
        current.append(character)
      } else if character.isWhitespace && !inQuotes {
        flush()
      } else {
        current.append(character)
      }
    }
    flush()
    return tokens.filter { !($0.quoted && $0.text.isEmpty) }
  }

  private static func unquote(_ text: String) -> String {
    if text.count >= 2, text.first == "\"", text.last == "\"" { return String(text.dropFirst().dropLast()) }
    return text
  }

  // MARK: - Evaluating

  /// Whether `bookmark` matches: all positive terms (any, with `match:OR`), and none of the negated ones.
  /// Words compare folded (``SearchFolding``); the local store's SQL (`SearchSQL`) says the same thing.
  public func matches(_ bookmark: Bookmark) -> Bool {
    let fields = SearchFields(bookmark)
    var anyPositive = false
    var anyPositiveMatched = false
    for term in terms {
      let hit = Self.evaluate(term.kind, bookmark, fields) > 0
      if term.negated {
        if hit { return false }
      } else {
        anyPositive = true
        if hit {
          anyPositiveMatched = true
        } else if !matchAny {
          return false
        }
      }
    }
    return !anyPositive || anyPositiveMatched || !matchAny
  }

  /// Relevance for `sort=score`: a title hit weighs 3, a tag 2, anything else 1.
  public func score(_ bookmark: Bookmark) -> Int {
    let fields = SearchFields(bookmark)
    return terms.filter { !$0.negated }.reduce(0) { $0 + Self.evaluate($1.kind, bookmark, fields) }
  }

  /// The words of `title:a b` and the like, folded: each must occur in the field.
  public static func fieldWords(_ text: String) -> [String] {
    text.split(separator: " ").map { SearchFolding.fold(String($0)) }
  }

  /// The weight a word or phrase earns in each place it occurs: title 3, tags 2, excerpt or note 1, link or
  /// domain 1.
  public static let titleWeight = 3
  public static let tagWeight = 2
  public static let fieldWeight = 1

  /// 0 for no match; otherwise a weight.
  private static func evaluate(_ kind: Kind, _ bookmark: Bookmark, _ fields: SearchFields) -> Int {
    func contains(_ haystack: String, _ needle: String) -> Bool { SearchFolding.contains(haystack, needle) }
    switch kind {
    case .word(let text), .phrase(let text):
      let word = SearchFolding.fold(text)
      var weight = 0
      if contains(fields.title, word) { weight += titleWeight }
      if contains(fields.tags, word) { weight += tagWeight }
      if contains(fields.excerpt, word) || contains(fields.note, word) { weight += fieldWeight }
      if contains(fields.link, word) || contains(fields.domain, word) { weight += fieldWeight }
      return weight
    case .tag(let tag):
      let enclosed = SearchFolding.tagSeparator + SearchFolding.fold(tag) + SearchFolding.tagSeparator
      return contains(fields.tags, enclosed) ? tagWeight : 0
    case .field(let field, let text):
      let value =
        switch field {
        case .title: fields.title
        case .excerpt: fields.excerpt
        case .note: fields.note
        case .link: fields.link
        case .domain: fields.domain
        }
      let words = fieldWords(text)
      return !words.isEmpty && words.allSatisfy({ contains(value, $0) })
        ? (field == .title ? titleWeight : fieldWeight) : 0
    case .type(let type): return type != nil && bookmark.type == type ? 1 : 0
    case .important(let flag): return bookmark.important == flag ? 1 : 0
    case .noTags(let flag): return bookmark.tags.isEmpty == flag ? 1 : 0
    case .created(let filter): return filter.matches(bookmark.created) ? 1 : 0
    case .lastUpdate(let filter): return filter.matches(bookmark.lastUpdate) ? 1 : 0
    case .unsupported: return 0
    }
  }
}
