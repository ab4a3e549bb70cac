/// How far a bulk update got before it failed: which bookmarks the server changed, which it may have changed
/// (a request whose answer was lost), and which it never saw. A bulk update is sent 100 ids at a time, so a
/// failure part-way leaves earlier batches changed; the person needs to know which to retry.
public struct BulkProgress: Sendable, Hashable {
  public var changed: [Int]
  /// Sent, but the answer never came or said nothing readable after a 5xx or a lost connection.
  public var uncertain: [Int]
  public var unchanged: [Int]

  public init(changed: [Int], uncertain: [Int], unchanged: [Int]) {
    self.changed = changed
    self.uncertain = uncertain
    self.unchanged = unchanged
  }

  public var total: Int { changed.count + uncertain.count + unchanged.count }

  /// "100 of 250 bookmarks were changed (ids 1–100) and 150 were not (ids 101–250)".
  public var description: String {
    var parts = [
      "\(changed.count) of \(total) bookmarks \(changed.count == 1 ? "was" : "were") changed" + Self.listed(changed)
    ]
    if !uncertain.isEmpty {
      parts.append("\(uncertain.count) may have been (the answer was lost)" + Self.listed(uncertain))
    }
    parts.append("\(unchanged.count) \(unchanged.count == 1 ? "was" : "were") not" + Self.listed(unchanged))
    return parts.count == 2
      ? "\(parts[0]) and \(parts[1])" : parts.dropLast().joined(separator: ", ") + " and \(parts[parts.count - 1])"
  }

  /// " (ids 1–3, 7)": every id, in order, runs of consecutive ids as ranges, so that the person can retry
  /// exactly these.
  static func listed(_ ids: [Int]) -> String {
    guard !ids.isEmpty else { return "" }
    let ids = ids.sorted()
    var runs: [String] = []
    var index = 0
    while index < ids.count {
      var end = index
      while end + 1 < ids.count, ids[end + 1] == ids[end] + 1 { end += 1 }
      runs.append(
        end > index + 1 ? "\(ids[index])–\(ids[end])" : (index...end).map { "\(ids[$0])" }.joined(separator: ", "))
      index = end + 1
    }
    return " (\(ids.count == 1 ? "id" : "ids") \(runs.joined(separator: ", ")))"
  }
}
