import Synchronization

/// The one rule that turns Swift names into the kebab-case users write (SPEC §1).
public enum Naming {
  /// `addTags` → `add-tags`, `SaveBookmark` → `save-bookmark`, `GetURL` → `get-url`,
  /// `URLDetails` → `url-details`, `_maxResults` → `max-results`.
  ///
  /// A run of capitals is one word (an acronym) except for its last letter when a lowercase letter
  /// follows, which starts the next word. Digits stay with the word before them.
  public static func kebabCase(_ name: String) -> String {
    if let known = converted.withLock({ $0[name] }) { return known }
    let result = convert(name)
    converted.withLock { $0[name] = result }
    return result
  }

  /// Names converted so far: every action step reflects its intent anew, and the same few property names
  /// come back each time.
  private static let converted = Mutex<[String: String]>([:])

  private static func convert(_ name: String) -> String {
    let characters = Array(name.drop { $0 == "_" })
    var words: [String] = []
    var current = ""
    for (index, character) in characters.enumerated() {
      if character == "_" || character == "-" || character == " " {
        if !current.isEmpty { words.append(current) }
        current = ""
        continue
      }
      if character.isUppercase, !current.isEmpty {
        let previous = characters[index - 1]
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        let startsWord =
          previous.isLowercase || previous.isNumber
          || (previous.isUppercase && (next?.isLowercase ?? false))
        if startsWord {
          words.append(current)
          current = ""
        }
      }
      current.append(character)
    }
    if !current.isEmpty { words.append(current) }
    return words.map { $0.lowercased() }.joined(separator: "-")
  }

  /// Whether `key` is kebab-case: lowercase letters and digits in words joined by single hyphens.
  public static func isKebabCase(_ key: String) -> Bool {
    guard let first = key.first, first.isLowercase, first.isASCII else { return false }
    var previousHyphen = false
    for character in key {
      if character == "-" {
        if previousHyphen { return false }
        previousHyphen = true
      } else if (character.isLowercase || character.isNumber) && character.isASCII {
        previousHyphen = false
      } else {
        return false
      }
    }
    return !previousHyphen
  }

  /// An intent's id from its type name: `SaveBookmarkIntent` → `save-bookmark`.
  public static func intentID(forTypeName typeName: String) -> String {
    var name = typeName
    if name.hasSuffix("Intent"), name != "Intent" { name.removeLast("Intent".count) }
    return kebabCase(name)
  }
}

extension Naming {
  /// A title from a key when no other is known: `collection-id` → "Collection ID".
  public static func title(fromKey key: String) -> String {
    key.split(separator: "-").map { word in
      ["id", "url"].contains(word) ? word.uppercased() : word.prefix(1).uppercased() + word.dropFirst()
    }.joined(separator: " ")
  }
}
