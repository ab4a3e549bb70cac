import FoundationEssentials
import _FoundationICU

/// Text compared without regard to case, as `filter`, `sort`, conditions and answers typed at a prompt
/// compare it: Unicode's caseless match (full case folding and canonical decomposition,
/// ``UnicodeFolding/caseless(_:)``), then scalar by scalar, except that in ``compare(_:_:)`` each run of
/// ASCII digits compares as the number it writes ("item 2" before "item 10", "007" the same as "7").
/// This is what Foundation's `compare(_:options: [.caseInsensitive, .numeric])` answers (held to it in
/// a test), written here because swift-foundation's own stops the program on text beyond ASCII.
public enum TextOrder {
  public static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
    if let order = asciiOrder(lhs, rhs, numeric: true) { return order }
    return order(caselessScalars(lhs), caselessScalars(rhs), numeric: true)
  }

  /// A text in the form ``compare(_:_:)`` reads it, made once for a text compared many times (a sort):
  /// comparing two keys is comparing their texts.
  public struct Key: Sendable {
    fileprivate let scalars: [UInt32]

    public init(_ text: String) {
      scalars =
        text.utf8.allSatisfy({ $0 < 0x80 })
        ? text.utf8.map { UInt32($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) } : caselessScalars(text)
    }
  }

  public static func compare(_ lhs: Key, _ rhs: Key) -> ComparisonResult {
    order(lhs.scalars, rhs.scalars, numeric: true)
  }

  /// Whether the two are the same text but for case ("Yes" and "yes"; "STRASSE" and "Straße").
  public static func sameIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
    if let order = asciiOrder(lhs, rhs, numeric: false) { return order == .orderedSame }
    return UnicodeFolding.caseless(lhs) == UnicodeFolding.caseless(rhs)
  }

  /// Whether `needle` occurs in `haystack` without regard to case; an empty needle occurs nowhere, as
  /// with Foundation's `range(of:options: .caseInsensitive)`.
  public static func contains(_ haystack: String, ignoringCase needle: String) -> Bool {
    guard !needle.isEmpty else { return false }
    let sought = caselessUnits(needle)
    let text = caselessUnits(haystack)
    guard sought.count <= text.count else { return false }
    // A match must start and end on a scalar: a low surrogate never starts one, and the units after a
    // needle that ends in a high surrogate are its own.
    return (0...(text.count - sought.count)).contains { start in
      !UTF16.isTrailSurrogate(text[start]) && text[start..<(start + sought.count)].elementsEqual(sought)
    }
  }

  /// ``UnicodeFolding/caseless(_:)``, with ASCII lower-cased here rather than through ICU.
  private static func caselessUnits(_ text: String) -> [UInt16] {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return UnicodeFolding.caseless(text) }
    return text.utf8.map { UInt16($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) }
  }

  /// The order of two ASCII texts, nil when either holds anything else.
  private static func asciiOrder(_ lhs: String, _ rhs: String, numeric: Bool) -> ComparisonResult? {
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in
      rhs.withUTF8 { right in
        guard left.allSatisfy({ $0 < 0x80 }), right.allSatisfy({ $0 < 0x80 }) else { return nil }
        func lower(_ byte: UInt8) -> UInt32 { UInt32(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        return order(left.lazy.map(lower), right.lazy.map(lower), numeric: numeric)
      }
    }
  }

  private static func caselessScalars(_ text: String) -> [UInt32] {
    String(decoding: UnicodeFolding.caseless(text), as: UTF16.self).unicodeScalars.map(\.value)
  }

  private static func order<L: RandomAccessCollection<UInt32>, R: RandomAccessCollection<UInt32>>(
    _ lhs: L, _ rhs: R, numeric: Bool
  ) -> ComparisonResult where L.Index == Int, R.Index == Int {
    func isDigit(_ value: UInt32) -> Bool { value >= 0x30 && value <= 0x39 }
    var i = lhs.startIndex
    var j = rhs.startIndex
    while i < lhs.endIndex && j < rhs.endIndex {
      guard numeric, isDigit(lhs[i]), isDigit(rhs[j]) else {
        if lhs[i] != rhs[j] { return lhs[i] < rhs[j] ? .orderedAscending : .orderedDescending }
        i += 1
        j += 1
        continue
      }
      // Two runs of digits: without their leading zeros, the longer is the larger, else the first digit
      // that differs says.
      var leftEnd = i
      while leftEnd < lhs.endIndex && isDigit(lhs[leftEnd]) { leftEnd += 1 }
      var rightEnd = j
      while rightEnd < rhs.endIndex && isDigit(rhs[rightEnd]) { rightEnd += 1 }
      while i < leftEnd - 1 && lhs[i] == 0x30 { i += 1 }
      while j < rightEnd - 1 && rhs[j] == 0x30 { j += 1 }
      if leftEnd - i != rightEnd - j { return leftEnd - i < rightEnd - j ? .orderedAscending : .orderedDescending }
      while i < leftEnd {
        if lhs[i] != rhs[j] { return lhs[i] < rhs[j] ? .orderedAscending : .orderedDescending }
        i += 1
        j += 1
      }
    }
    if i < lhs.endIndex { return .orderedDescending }
    if j < rhs.endIndex { return .orderedAscending }
    return .orderedSame
  }
}

/// Titles in the order a person expects in a list, as Foundation's `localizedStandardCompare` gives it:
/// ICU's collation of the root locale (accents after base letters, "é" beside "e"), digits as numbers, case
/// only breaking ties, then the scalars themselves, so that no two different texts tie. The root locale,
/// rather than the machine's, keeps a workflow's sorted lists the same everywhere.
public enum CollationOrder {
  public static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
    let left = Array(lhs.utf16)
    let right = Array(rhs.utf16)
    let result = swift_ucol_strcoll(collator.pointer, left, Int32(left.count), right, Int32(right.count))
    if result == UCOL_LESS { return .orderedAscending }
    if result == UCOL_GREATER { return .orderedDescending }
    return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
      ? .orderedAscending : lhs == rhs ? .orderedSame : .orderedDescending
  }

  /// A title in the form ``compare(_:_:)`` reads it (ICU's sort key, then the text), made once for a title
  /// sorted among many: keys order as their texts do.
  public struct Key: Comparable, Sendable {
    let bytes: [UInt8]
    let text: String

    public init(_ text: String) {
      self.text = text
      let units = Array(text.utf16)
      var bytes = [UInt8](repeating: 0, count: units.count * 4 + 16)
      var length = Int(swift_ucol_getSortKey(collator.pointer, units, Int32(units.count), &bytes, Int32(bytes.count)))
      if length > bytes.count {
        bytes = [UInt8](repeating: 0, count: length)
        length = Int(swift_ucol_getSortKey(collator.pointer, units, Int32(units.count), &bytes, Int32(bytes.count)))
      }
      self.bytes = Array(bytes.prefix(length))
    }

    public static func < (lhs: Key, rhs: Key) -> Bool {
      if lhs.bytes != rhs.bytes { return lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
      return lhs.text.unicodeScalars.lexicographicallyPrecedes(rhs.text.unicodeScalars)
    }

    public static func == (lhs: Key, rhs: Key) -> Bool { lhs.text == rhs.text }
  }

  /// One collator for the process: ICU's collators compare on many threads at once as long as none
  /// changes it.
  private static let collator = Collator()

  private final class Collator: @unchecked Sendable {
    let pointer: OpaquePointer?

    init() {
      var status = U_ZERO_ERROR
      pointer = swift_ucol_open("", &status)
      swift_ucol_setAttribute(pointer, UCOL_NUMERIC_COLLATION, UCOL_ON, &status)
      swift_ucol_setStrength(pointer, UCOL_TERTIARY)
    }
  }
}
