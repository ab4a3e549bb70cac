/// Durations as people write them in workflows: `30s`, `2m`, `1h30m`, `500ms`, `1.5s`, or bare seconds.
///
/// Every duration read from outside (a file, an input, a step's value, the environment) goes through
/// ``read(_:)`` or ``duration(seconds:)``, which refuse or bound anything past ``longest``: a bigger
/// number (`1e300`, `9999999999999999999d`) does not fit `Duration`'s milliseconds, and converting it trapped.
public enum DurationParsing {
  /// The longest duration flow takes: 366 days. Every wait and timeout is far shorter; the bound is there
  /// so that the arithmetic on a duration (deadlines, milliseconds) never overflows.
  public static let longestSeconds: Double = 366 * 86_400

  /// Why a text is not a duration flow takes.
  public enum Problem: Error, Equatable {
    /// Not a duration at all.
    case notADuration
    /// A duration past ``longestSeconds``.
    case tooLong
  }

  /// Parses `30s`, `2m`, `1h30m`, `500ms`, `1d`, `1.5s` or `90` (seconds); nil when it is not a duration or
  /// is longer than ``longestSeconds``.
  public static func parse(_ text: String) -> Duration? {
    try? read(text).get()
  }

  /// The duration `text` writes, or why it is not one flow takes.
  public static func read(_ text: String) -> Result<Duration, Problem> {
    guard let seconds = seconds(in: text) else { return .failure(.notADuration) }
    guard seconds <= longestSeconds else { return .failure(.tooLong) }
    return .success(duration(seconds: seconds))
  }

  /// What a message says about the longest duration: "366d".
  public static var longestText: String { format(duration(seconds: longestSeconds)) }

  /// The seconds `text` writes, unbounded (possibly infinite); nil when it is not a duration.
  private static func seconds(in text: String) -> Double? {
    let trimmed = text.filter { !$0.isWhitespace }.lowercased()
    guard !trimmed.isEmpty else { return nil }
    if let seconds = Double(trimmed) {
      return seconds >= 0 && !seconds.isNaN ? seconds : nil
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
    guard number.isEmpty, sawUnit, !total.isNaN else { return nil }
    return total
  }

  /// Seconds in each unit people write.
  private static let scales: [String: Double] = [
    "ms": 0.001, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400,
  ]

  /// A duration of `seconds`, exact to the millisecond, bounded to 0 … ``longestSeconds`` (callers check the
  /// range first and say so; the bound keeps a missed check from trapping).
  public static func duration(seconds: Double) -> Duration {
    let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), longestSeconds)
    return .milliseconds(Int64((bounded * 1000).rounded()))
  }

  /// The duration in seconds.
  public static func seconds(of duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// Writes a duration the way it is parsed: `1h30m`, `45s`, `500ms`.
  public static func format(_ duration: Duration) -> String {
    // A Duration made elsewhere may be longer than any flow reads; it is written as the longest.
    var milliseconds = Int64((min(max(seconds(of: duration), 0), longestSeconds) * 1000).rounded())
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
