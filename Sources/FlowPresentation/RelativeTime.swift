import FoundationEssentials

/// "2 months ago": how long ago a date was, in the one unit a person would use, against the injected
/// clock's now.
public enum RelativeTime {
  public static func since(_ date: Date, now: Date) -> String {
    let seconds = now.timeIntervalSince(date)
    // A date a little in the future is clock skew between machines, not news.
    guard seconds >= 60 else { return "just now" }
    let minutes = Int(seconds / 60)
    if minutes < 60 { return ago(minutes, "minute") }
    let hours = minutes / 60
    if hours < 24 { return ago(hours, "hour") }
    let days = hours / 24
    if days < 2 { return "yesterday" }
    if days < 14 { return ago(days, "day") }
    if days < 60 { return ago(days / 7, "week") }
    if days < 365 { return ago(days / 30, "month") }
    return ago(days / 365, "year")
  }

  private static func ago(_ count: Int, _ unit: String) -> String {
    "\(count) \(unit)\(count == 1 ? "" : "s") ago"
  }
}
