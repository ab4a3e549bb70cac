import FlowIntents

/// How `format-date` writes a date.
enum DateStyle: String, AppEnum {
  case iso8601 = "iso-8601"
  case short, medium, long, full, custom

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Date Style"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .iso8601: "ISO 8601", .short: "Short", .medium: "Medium", .long: "Long", .full: "Full", .custom: "Custom",
  ]
}
