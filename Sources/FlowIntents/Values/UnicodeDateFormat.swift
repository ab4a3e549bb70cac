import FoundationEssentials
import _FoundationICU

/// A date written or read with a Unicode date pattern (`yyyy-MM-dd'T'HH:mm:ssXXXXX`) or a style, through
/// ICU's date formats: what `DateFormatter` does with them, called directly so that the binary does not
/// link swift-corelibs-foundation. Reading is strict (not lenient) and takes the whole text or nothing.
/// An ICU object costs about a tenth of a millisecond to make, so callers make one only for text that
/// can be a date.
public final class UnicodeDateFormat {
  /// A standard style, as ICU numbers them.
  public enum Style: Int32 {
    case full = 0
    case long = 1
    case medium = 2
    case short = 3
  }

  private let format: UnsafeMutablePointer<UDateFormat?>

  /// `pattern` in `locale` (an ICU locale id such as `en_US_POSIX`), in the zone named `timeZone`; nil when
  /// ICU takes neither.
  public init?(pattern: String, locale: String = "en_US_POSIX", timeZone: String) {
    let zone = Array(timeZone.utf16)
    let pattern = Array(pattern.utf16)
    var status = U_ZERO_ERROR
    guard
      let format = swift_udat_open(
        UDAT_PATTERN, UDAT_PATTERN, locale, zone, Int32(zone.count), pattern, Int32(pattern.count), &status),
      status.rawValue <= 0
    else { return nil }
    swift_udat_setLenient(format, 0)
    self.format = format
  }

  /// The date in `dateStyle` and the time in `timeStyle`, as `locale` writes them.
  public init?(dateStyle: Style, timeStyle: Style, locale: String, timeZone: String) {
    let zone = Array(timeZone.utf16)
    var status = U_ZERO_ERROR
    guard
      let format = swift_udat_open(
        UDateFormatStyle(rawValue: timeStyle.rawValue), UDateFormatStyle(rawValue: dateStyle.rawValue), locale,
        zone, Int32(zone.count), nil, -1, &status),
      status.rawValue <= 0
    else { return nil }
    self.format = format
  }

  deinit { swift_udat_close(format) }

  public func string(from date: Date) -> String {
    let milliseconds = date.timeIntervalSince1970 * 1000
    var units = [UInt16](repeating: 0, count: 64)
    var status = U_ZERO_ERROR
    var length = swift_udat_format(format, milliseconds, &units, Int32(units.count), nil, &status)
    if status == U_BUFFER_OVERFLOW_ERROR {
      units = [UInt16](repeating: 0, count: Int(length))
      status = U_ZERO_ERROR
      length = swift_udat_format(format, milliseconds, &units, Int32(units.count), nil, &status)
    }
    guard status.rawValue <= 0 else { return "" }
    return String(decoding: units.prefix(Int(length)), as: UTF16.self)
  }

  /// The date `text` writes, when all of it reads but for white space after it (as `DateFormatter`).
  public func date(from text: String) -> Date? {
    let units = Array(text.utf16)
    var position: Int32 = 0
    var status = U_ZERO_ERROR
    let milliseconds = swift_udat_parse(format, units, Int32(units.count), &position, &status)
    guard status.rawValue <= 0, units[Int(position)...].allSatisfy({ [9, 10, 13, 32].contains($0) }) else {
      return nil
    }
    return Date(timeIntervalSince1970: milliseconds / 1000)
  }
}
