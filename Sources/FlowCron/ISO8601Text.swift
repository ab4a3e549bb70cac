import FlowDiagnostics

/// ISO 8601 text for fire times, without Foundation's formatters (a few microseconds each).
public enum ISO8601Text {
  /// `2026-11-30T09:00:00+01:00`; UTC is `+00:00`, as `date -Iseconds` writes it.
  public static func format(_ instant: Int64, utcOffset: Int) -> String {
    let local = instant + Int64(utcOffset)
    let day = CivilTime.floorDivide(local, CivilTime.secondsPerDay)
    let second = Int(local - day * CivilTime.secondsPerDay)
    let (year, month, dayOfMonth) = CivilTime.date(days: day)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var text =
      "\(year)-\(two(month))-\(two(dayOfMonth))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    let magnitude = abs(utcOffset) / 60
    text += "\(utcOffset < 0 ? "-" : "+")\(two(magnitude / 60)):\(two(magnitude % 60))"
    return text
  }

  /// The instant of `2026-11-30T09:00:00+01:00` (or `…Z`, or `+0100`), as ``format(_:utcOffset:)``
  /// writes it; nil for any other text, or a field out of its range.
  public static func parse(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: year)).contains(day), hour < 24,
      minute < 60, second < 60
    else { return nil }
    var offset = 0
    let zone = Array(bytes[19...])
    if zone != [UInt8(ascii: "Z")] {
      let digits = zone.dropFirst().filter { $0 != UInt8(ascii: ":") }
      guard let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), digits.count == 4,
        zone.count == 5 || (zone.count == 6 && zone[3] == UInt8(ascii: ":")),
        let hours = Int(String(decoding: digits.prefix(2), as: UTF8.self)),
        let minutes = Int(String(decoding: digits.suffix(2), as: UTF8.self)), hours < 24, minutes < 60
      else { return nil }
      offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
    let days = CivilTime.days(year: year, month: month, day: day)
    return days * CivilTime.secondsPerDay + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
  }
}
