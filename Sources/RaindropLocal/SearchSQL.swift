import FlowSQLite
import FoundationEssentials
import RaindropModel

/// A search (``SearchQuery``) as SQL over the store's folded columns (``SearchSQL/foldedColumns``): a
/// condition that holds exactly where ``SearchQuery/matches(_:)`` does, and the relevance
/// ``SearchQuery/score(_:)`` gives, so that SQLite finds, counts and orders the matches and only a page of
/// them comes into Swift. Words are compared with `instr` over text folded when the bookmark was written,
/// which is the byte-for-byte test ``SearchFolding/contains(_:_:)`` makes (Performance.md has the figures
/// against FTS5 and `LIKE`).
struct SearchSQL {
  /// The columns a bookmark's ``SearchFields`` are kept in, in the order ``values(_:)`` gives them.
  static let foldedColumns = ["title_fold", "excerpt_fold", "note_fold", "link_fold", "domain_fold", "tags_fold"]

  /// The folded columns' values for a bookmark's fields.
  static func values(_ fields: SearchFields) -> [SQLValue] {
    [
      .text(fields.title), .text(fields.excerpt), .text(fields.note), .text(fields.link), .text(fields.domain),
      .text(fields.tags),
    ]
  }

  /// A boolean expression: `1` when the search has no terms.
  private(set) var condition = "1"
  /// An integer expression: the relevance of a matching row; nil when no term is positive, which makes
  /// every match's relevance 0.
  private(set) var score: String?
  /// Bound to `?N` from ``firstParameter`` on, in order.
  private(set) var parameters: [SQLValue] = []
  private let firstParameter: Int

  /// `firstParameter` is the number of the first `?N` this search uses: one more than the plain `?`s that
  /// come before its condition in the statement. Plain `?`s after it are numbered on from its last one.
  init(_ search: SearchQuery, firstParameter: Int) {
    self.firstParameter = firstParameter
    var positives: [String] = []
    var negatives: [String] = []
    var scores: [String] = []
    for term in search.terms {
      let (hit, weight) = expressions(term.kind)
      if term.negated {
        negatives.append("NOT (\(hit))")
      } else {
        positives.append("(\(hit))")
        // A bare 0 in ORDER BY would name a column.
        if weight != "0" { scores.append(weight) }
      }
    }
    var parts = negatives
    if !positives.isEmpty { parts.append("(" + positives.joined(separator: search.matchAny ? " OR " : " AND ") + ")") }
    if !parts.isEmpty { condition = parts.joined(separator: " AND ") }
    if !scores.isEmpty { score = scores.joined(separator: " + ") }
  }

  /// A new parameter's placeholder.
  private mutating func bind(_ value: SQLValue) -> String {
    parameters.append(value)
    return "?\(firstParameter + parameters.count - 1)"
  }

  private static func occurs(_ column: String, _ placeholder: String) -> String {
    "instr(\(column), \(placeholder)) > 0"
  }

  /// Whether a term holds, and its weight (as ``SearchQuery``'s `evaluate` gives it).
  private mutating func expressions(_ kind: SearchQuery.Kind) -> (hit: String, weight: String) {
    switch kind {
    case .word(let text), .phrase(let text):
      let word = bind(.text(SearchFolding.fold(text)))
      let title = Self.occurs("title_fold", word)
      let tags = Self.occurs("tags_fold", word)
      let text = "\(Self.occurs("excerpt_fold", word)) OR \(Self.occurs("note_fold", word))"
      let link = "\(Self.occurs("link_fold", word)) OR \(Self.occurs("domain_fold", word))"
      return (
        "\(title) OR \(tags) OR \(text) OR \(link)",
        "((\(title)) * \(SearchQuery.titleWeight) + (\(tags)) * \(SearchQuery.tagWeight) + (\(text)) * "
          + "\(SearchQuery.fieldWeight) + (\(link)) * \(SearchQuery.fieldWeight))"
      )
    case .tag(let tag):
      let enclosed = bind(.text(SearchFolding.tagSeparator + SearchFolding.fold(tag) + SearchFolding.tagSeparator))
      let hit = Self.occurs("tags_fold", enclosed)
      return (hit, "(\(hit)) * \(SearchQuery.tagWeight)")
    case .field(let field, let text):
      let words = SearchQuery.fieldWords(text)
      guard !words.isEmpty else { return ("0", "0") }
      let column = "\(field.rawValue)_fold"
      var hits: [String] = []
      for word in words { hits.append(Self.occurs(column, bind(.text(word)))) }
      let hit = hits.joined(separator: " AND ")
      let weight = field == .title ? SearchQuery.titleWeight : SearchQuery.fieldWeight
      return (hit, "(\(hit)) * \(weight)")
    case .type(let type):
      guard let type else { return ("0", "0") }
      let hit = "type = \(bind(.text(type.rawValue)))"
      return (hit, "(\(hit))")
    case .important(let flag):
      let hit = "important = \(flag ? 1 : 0)"
      return (hit, "(\(hit))")
    case .noTags(let flag):
      let hit = flag ? "tags_fold = ''" : "tags_fold <> ''"
      return (hit, "(\(hit))")
    case .created(let filter):
      let hit = range("created", filter)
      return (hit, "(\(hit))")
    case .lastUpdate(let filter):
      let hit = range("last_update", filter)
      return (hit, "(\(hit))")
    case .unsupported:
      return ("0", "0")
    }
  }

  /// ``SearchQuery/DateFilter/matches(_:)`` over a column of milliseconds.
  private mutating func range(_ column: String, _ filter: SearchQuery.DateFilter) -> String {
    switch filter.comparison {
    case .on:
      let start = bind(.integer(filter.start.millisecondsSince1970))
      return "\(column) >= \(start) AND \(column) < \(bind(.integer(filter.end.millisecondsSince1970)))"
    case .before: return "\(column) < \(bind(.integer(filter.start.millisecondsSince1970)))"
    case .after: return "\(column) >= \(bind(.integer(filter.end.millisecondsSince1970)))"
    }
  }
}
