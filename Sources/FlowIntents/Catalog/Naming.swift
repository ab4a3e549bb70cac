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

  /// Names converted so far: an enum's id and a class entity's properties are named at every use, and the
  /// same few names come back each time. Sized for the names a run meets, so that it does not grow on
  /// the run path: growing a `[String: String]` cost a run a scan of every conformance record
  /// (`SessionContext.processEnvironment` says why).
  private static let converted = Mutex([String: String](minimumCapacity: 256))

  private static func convert(_ name: String) -> String { convertASCII(name) ?? convertCharacters(name) }

  static func convertCharacters(_ name: String) -> String {
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

  /// ``convert(_:)`` for a name of ASCII letters, digits and separators, byte by byte; nil for any other.
  ///
  /// Swift names are ASCII, and `Character`'s Unicode properties made converting them 18,000
  /// instructions a name: a registry names every intent it holds when it is made, 1.3 M of every run's
  /// instructions for 68 intents. For ASCII the rules are the same ones (`NamingTests` compares the two).
  static func convertASCII(_ name: String) -> String? { convertASCII(name[...]) }

  private static func convertASCII(_ name: Substring) -> String? {
    // A name whose bytes are not contiguous goes the general way.
    name.utf8.withContiguousStorageIfAvailable(convertASCII) ?? nil
  }

  private static func convertASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    // One pass over the bytes where they lie, writing straight into the new string (at most a hyphen
    // before each byte): every start names all 68 intents, and arrays for the bytes and the result cost
    // 2,000 instructions a name.
    var start = 0
    while start < bytes.count, bytes[start] == UInt8(ascii: "_") { start += 1 }
    guard !bytes[start...].contains(where: { $0 >= 0x80 }) else { return nil }
    func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    return String(unsafeUninitializedCapacity: 2 * (bytes.count - start)) { result in
      var (length, wordLength) = (0, 0)
      func endWord() {
        if wordLength > 0 {
          result[length] = UInt8(ascii: "-")
          length += 1
        }
        wordLength = 0
      }
      for index in start..<bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") {
          endWord()
          continue
        }
        if isUpper(byte), wordLength > 0 {
          let previous = bytes[index - 1]
          let next = index + 1 < bytes.count ? bytes[index + 1] : nil
          if isLower(previous) || isDigit(previous) || (isUpper(previous) && next.map(isLower) ?? false) { endWord() }
        }
        result[length] = isUpper(byte) ? byte + 32 : byte
        length += 1
        wordLength += 1
      }
      if wordLength == 0, length > 0, result[length - 1] == UInt8(ascii: "-") { length -= 1 }
      return length
    }
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
  ///
  /// The name is read as the bytes it holds, and not kept in ``kebabCase(_:)``'s cache (each type is
  /// named once): a registry names all 68 intents it holds when it is made, and cutting the suffix
  /// as `Character`s and caching the names cost 5,900 instructions a name, 7% of a one-step run; cutting
  /// it from a `Substring`'s UTF-8 view and converting that view, 2,200.
  public static func intentID(forTypeName typeName: String) -> String {
    var typeName = typeName
    return typeName.withUTF8 { bytes in
      let suffix: StaticString = "Intent"
      let stem = bytes.count - suffix.utf8CodeUnitCount
      let cut = stem > 0 && (0..<suffix.utf8CodeUnitCount).allSatisfy { bytes[stem + $0] == suffix.utf8Start[$0] }
      let name = UnsafeBufferPointer(rebasing: bytes[..<(cut ? stem : bytes.count)])
      return convertASCII(name) ?? convertCharacters(String(decoding: name, as: UTF8.self))
    }
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
