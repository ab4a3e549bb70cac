import _FoundationICU

/// Unicode's case folding and canonical decomposition, through ICU (the library Foundation itself uses for
/// them): what comparing text without regard to case (``TextOrder``) and a search without regard to case or
/// accents (`SearchFolding`) are built on. Each takes text as UTF-16 units, as ICU does.
public enum UnicodeFolding {
  /// `text` with Unicode's full case folding ("Straße" is "strasse", "ſ" is "s"), in canonical
  /// decomposition ("é" is "e" and U+0301), so that two texts that differ only in case or in how an accent
  /// is encoded give the same units: a caseless match in the Unicode standard's sense (D145).
  public static func caseless(_ text: String) -> [UInt16] {
    decomposed(folded(decomposed(Array(text.utf16))))
  }

  /// `units` with Unicode's full case folding.
  public static func folded(_ units: [UInt16]) -> [UInt16] {
    icu(units) { source, count, target, capacity, status in
      swift_u_strFoldCase(target, capacity, source, count, UInt32(U_FOLD_CASE_DEFAULT), status)
    }
  }

  /// `units` in canonical decomposition (NFD).
  public static func decomposed(_ units: [UInt16]) -> [UInt16] { normalized(units, swift_unorm2_getNFDInstance) }

  /// `units` in canonical composition (NFC).
  public static func composed(_ units: [UInt16]) -> [UInt16] { normalized(units, swift_unorm2_getNFCInstance) }

  /// `text` in compatibility composition (NFKC): full-width `ｂ` is `b`, `ﬁ` is `fi`.
  public static func compatibilityComposed(_ text: String) -> String {
    String(decoding: normalized(Array(text.utf16), swift_unorm2_getNFKCInstance), as: UTF16.self)
  }

  private static func normalized(
    _ units: [UInt16], _ instance: (UnsafeMutablePointer<UErrorCode>) -> OpaquePointer?
  ) -> [UInt16] {
    var status = U_ZERO_ERROR
    guard let form = instance(&status) else { return units }
    return icu(units) { source, count, target, capacity, status in
      swift_unorm2_normalize(form, source, count, target, capacity, status)
    }
  }

  /// Calls an ICU function that writes into a buffer, again with a larger one when the first was too small;
  /// the units unchanged if ICU fails (it fails only on ill-formed input, which a Swift string never is).
  private static func icu(
    _ units: [UInt16],
    _ call: (
      UnsafePointer<UInt16>?, Int32, UnsafeMutablePointer<UInt16>?, Int32, UnsafeMutablePointer<UErrorCode>
    ) -> Int32
  ) -> [UInt16] {
    var capacity = units.count + units.count / 2 + 8
    while true {
      var status = U_ZERO_ERROR
      var length: Int32 = 0
      let result = [UInt16](unsafeUninitializedCapacity: capacity) { target, initialized in
        length = units.withUnsafeBufferPointer { source in
          call(source.baseAddress, Int32(source.count), target.baseAddress, Int32(capacity), &status)
        }
        initialized = status.rawValue <= 0 ? Int(length) : 0
      }
      if status == U_BUFFER_OVERFLOW_ERROR {
        capacity = Int(length)
        continue
      }
      return status.rawValue <= 0 ? result : units
    }
  }
}
