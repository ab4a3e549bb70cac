/// "Did you mean …?": the closest candidate to a misspelt name, when one is close enough.
public enum Suggestion {
  /// The candidate nearest to `name` by edit distance, if it is within the threshold.
  ///
  /// The threshold grows with the name: at most 2 edits for names up to 8 characters, 3 beyond. Fewer
  /// lets real typos through unanswered; more suggests unrelated names (just uses < 3,
  /// swift-argument-parser < 4). Ties go to the earlier candidate, so callers order by preference.
  public static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let limit = name.count <= 8 ? 2 : 3
    var best: (candidate: String, distance: Int)?
    let lowered = name.lowercased()
    for candidate in candidates where candidate != name {
      let distance = editDistance(lowered, candidate.lowercased())
      if distance <= limit, distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// The `= help:` text for a misspelt name: the closest candidate, or every choice when there are few.
  public static func help(for name: String, among candidates: [String], listUpTo few: Int = 6) -> String? {
    if let match = closest(to: name, among: candidates) { return "did you mean '\(match)'?" }
    if !candidates.isEmpty, candidates.count <= few {
      return "expected \(List.or(candidates.map { "'\($0)'" }))"
    }
    return nil
  }

  /// Levenshtein distance over Unicode scalars, in O(min(m, n)) memory.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

/// Lists that read as English: "'a', 'b' or 'c'".
public enum List {
  public static func or(_ items: [String]) -> String { join(items, "or") }
  public static func and(_ items: [String]) -> String { join(items, "and") }

  private static func join(_ items: [String], _ word: String) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    default: items.dropLast().joined(separator: ", ") + " \(word) " + items[items.count - 1]
    }
  }
}

/// Counted nouns that keep their grammar: "1 error", "2 errors".
public enum Count {
  public static func of(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
  }
}
