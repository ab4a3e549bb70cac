import FlowIntents
import FoundationEssentials

/// Writes a date as text, in a standard style or a custom pattern.
struct FormatDateIntent: AppIntent {
  static let title: LocalizedStringResource = "Format Date"
  static let description = IntentDescription(
    "Write a date as text: ISO 8601, a short to full style, or a custom pattern such as 'yyyy-MM-dd'.")

  @Parameter(title: "Date", primary: true)
  var date: Date

  @Parameter(title: "Style", default: .iso8601)
  var style: DateStyle

  @Parameter(title: "Format", description: "A Unicode date pattern, used with 'style: custom' (or alone).")
  var format: String?

  @Parameter(title: "Time Zone", description: "An IANA name such as 'Europe/Paris'; the system's when left out.")
  var timeZone: String?

  static var parameterSummary: some ParameterSummary {
    Summary("Format \(\.$date) as \(\.$style)") {
      \.$format
      \.$timeZone
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    var zone = TimeZone.current
    if let timeZone {
      guard let named = TimeZone(identifier: timeZone) else {
        throw AppIntentError.failed(
          "unknown time zone '\(timeZone)'", help: "use an IANA name such as 'UTC' or 'Europe/Paris'")
      }
      zone = named
    }
    // One language for output keeps workflows' results the same on every machine.
    let effective = format != nil && style == .iso8601 ? .custom : style
    let formatter: UnicodeDateFormat?
    switch effective {
    case .iso8601:
      formatter = UnicodeDateFormat(pattern: "yyyy-MM-dd'T'HH:mm:ssXXXXX", timeZone: zone.identifier)
    case .custom:
      guard let format, !format.isEmpty else {
        throw AppIntentError.failed("'style: custom' needs a 'format'", help: "add 'format: yyyy-MM-dd', for example")
      }
      formatter = UnicodeDateFormat(pattern: format, timeZone: zone.identifier)
    case .short, .medium, .long, .full:
      let styles: [DateStyle: UnicodeDateFormat.Style] = [.short: .short, .medium: .medium, .long: .long, .full: .full]
      let dateStyle = styles[effective] ?? .medium
      formatter = UnicodeDateFormat(
        dateStyle: dateStyle, timeStyle: effective == .full ? .long : dateStyle, locale: "en_US",
        timeZone: zone.identifier)
    }
    guard let formatter else {
      throw AppIntentError.failed(
        "'\(format ?? "")' is not a date pattern ICU can write", help: "write a pattern such as 'yyyy-MM-dd HH:mm'")
    }
    return .result(value: formatter.string(from: date))
  }
}
