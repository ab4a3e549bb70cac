/// Bytes as hexadecimal digits, two a byte: the one encoder for digests, ids, URLs' escapes and the
/// bytes a message names. Here, in the module every other imports, so that all of them can reach it.
public enum Hex {
  /// The value of one hexadecimal digit, either case; nil for any other byte.
  public static func value(ofDigit byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Lowercase by default, as `sha256sum` prints a digest; URLs and messages ask for uppercase. An array,
  /// not any collection: called from other modules, a generic one had the runtime look its iterator type
  /// up by scanning every conformance, 0.36 M instructions of a one-step run (callgrind).
  public static func encode(_ bytes: [UInt8], uppercase: Bool = false) -> String {
    let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
    return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
      digits.withUTF8Buffer { digits in
        var count = 0
        for byte in bytes {
          out[count] = digits[Int(byte >> 4)]
          out[count + 1] = digits[Int(byte & 0x0f)]
          count += 2
        }
        return count
      }
    }
  }
}
