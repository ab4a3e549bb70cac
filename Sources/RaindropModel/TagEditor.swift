import FlowDiagnostics
import FoundationEssentials

/// Tag list edits with the case-insensitive rules the intents use.
public enum TagEditor {
  /// `tags` plus those of `adding` not already there (ignoring case), minus those in `removing` (ignoring case).
  public static func edit(_ tags: [String], adding: [String] = [], removing: [String] = [], clearing: Bool = false)
    -> [String]
  {
    var result = clearing ? [] : tags
    var present = Set(result.map { $0.lowercased() })
    for tag in adding {
      let trimmed = tag.trimmingWhitespace()
      if !trimmed.isEmpty, present.insert(trimmed.lowercased()).inserted { result.append(trimmed) }
    }
    let removed = Set(removing.map { $0.lowercased() })
    if !removed.isEmpty { result.removeAll { removed.contains($0.lowercased()) } }
    return result
  }
}
