import FlowDiagnostics
import FoundationEssentials
import FoundationInternationalization

/// IANA time zone names (`Europe/Berlin`), checked as systemd, cron's `CRON_TZ` and Kubernetes will read
/// them: exactly as the tz database spells them.
public enum TimeZoneName {
  /// The zone named exactly `name`; nil for unknown names, other spellings (`europe/berlin`) and offsets
  /// (`GMT+2`), which the engines the units go to would not take.
  public static func zone(named name: String) -> TimeZone? {
    // Foundation answers "GMT" for "UTC"; both are tz database names.
    guard let zone = TimeZone(identifier: name), zone.identifier == name || name == "UTC" else { return nil }
    return zone
  }

  /// Every name, for suggestions.
  static var known: [String] { TimeZone.knownTimeZoneIdentifiers + ["UTC"] }

  /// Up to three names close to `name`: the same name in another case, zones whose city is `name`
  /// (`Berlin`, `new york`), then the nearest by edit distance, whole or by city.
  public static func suggestions(for name: String) -> [String] {
    let known = known
    let wanted = name.lowercased().replacingEvery(" ", with: "_")
    if let sameName = known.first(where: { $0.lowercased() == wanted }) { return [sameName] }
    func city(_ identifier: String) -> String {
      String(identifier.split(separator: "/").last ?? Substring(identifier)).lowercased()
    }
    let cities = known.filter { city($0) == city(wanted) }
    if !cities.isEmpty { return Array(cities.prefix(3)) }
    let ranked = known.map { candidate in
      (
        candidate,
        min(
          Suggestion.editDistance(wanted, candidate.lowercased()),
          Suggestion.editDistance(city(wanted), city(candidate)))
      )
    }
    let limit = wanted.count <= 8 ? 2 : 3
    return Array(ranked.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0))
  }

  /// The diagnostic for an unknown zone written at `span`.
  public static func unknown(_ name: String, at span: SourceSpan?) -> Diagnostic {
    // "GMT+2", "UTC-05:00", "+0100": an offset, which would not follow daylight saving.
    let isOffset =
      name.contains { $0 == "+" || $0 == "-" } && name.contains { $0.isNumber }
      && !name.contains("/")
    let close = isOffset ? [] : suggestions(for: name)
    let help =
      isOffset
      ? "an offset is not a zone: use the IANA name of the place, like 'Europe/Berlin', which follows its daylight saving"
      : close.isEmpty
        ? "use an IANA name such as 'UTC', 'Europe/Berlin' or 'America/New_York' ('timedatectl list-timezones')"
        : "did you mean \(List.or(close.map { "'\($0)'" }))?"
    return Diagnostic(.error, .unknownTimeZone, "unknown time zone '\(name)'", at: span).help(help)
  }
}

extension DiagnosticCode {
  /// A `timezone:` that is not an IANA name as the tz database spells it.
  public static let unknownTimeZone: Self = "unknown-time-zone"
}
