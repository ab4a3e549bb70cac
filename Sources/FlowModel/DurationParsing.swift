/// Durations as people write them in workflows: `30s`, `2m`, `1h30m`, `500ms`, `1.5s`, or bare seconds.
public enum DurationParsing {
  /// Parses `30s`, `2m`, `1h30m`, `500ms`, `1d`, `1.5s` or `90` (seconds); nil when it is not a duration.
  public static func parse(_ text: String) -> Duration? {
    let trimmed = text.filter { !$0.isWhitespace }.lowercased()
    guard !trimmed.isEmpty else { return nil }
    if let seconds = Double(trimmed) {
      return seconds >= 0 && seconds <= maximumSeconds ? duration(seconds: seconds) : nil
    }
    var total = 0.0
    var number = ""
    var index = trimmed.startIndex
    var sawUnit = false
    while index < trimmed.endIndex {
      let character = trimmed[index]
      if character.isNumber || character == "." {
        number.append(character)
        index = trimmed.index(after: index)
        continue
      }
      var unit = ""
      while index < trimmed.endIndex, trimmed[index].isLetter {
        unit.append(trimmed[index])
        index = trimmed.index(after: index)
      }
      guard let value = Double(number), let scale = scales[unit] else { return nil }
      total += value * scale
      number = ""
      sawUnit = true
    }
    guard number.isEmpty, sawUnit, total <= maximumSeconds else { return nil }
    return duration(seconds: total)
  }

  /// The longest duration flow takes, about 285 years: its nanoseconds still fit the 64-bit integers
  /// that sleeping and scheduling compute with. A longer one (or an infinite one) is refused like any
  /// other malformed duration, rather than trapping in the arithmetic.
  public static let maximumSeconds: Double = 9_000_000_000

  /// Seconds in each unit people write.
  private static let scales: [String: Double] = [
    "ms": 0.001, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400,
  ]

  /// A duration of `seconds`, exact to the millisecond.
  public static func duration(seconds: Double) -> Duration {
    .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// The duration in seconds.
  public static func seconds(of duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// Writes a duration the way it is parsed: `1h30m`, `45s`, `500ms`.
  public static func format(_ duration: Duration) -> String {
    var milliseconds = Int64((seconds(of: duration) * 1000).rounded())
    if milliseconds == 0 { return "0s" }
    var out = ""
    for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)] {
      let count = milliseconds / size
      if count > 0 {
        out += "\(count)\(unit)"
        milliseconds -= count * size
      }
    }
    return out
  }
}
