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
}
