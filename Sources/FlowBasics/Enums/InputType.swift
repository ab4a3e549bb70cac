import FlowIntents

/// What kind of answer `ask` wants; the answer is converted to it, and asked again when it does not fit.
enum InputType: String, AppEnum {
  case text, number, integer, url, date, boolean

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Input Type"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .text: "Text", .number: "Number", .integer: "Whole Number", .url: "URL", .date: "Date", .boolean: "Yes or No",
  ]

  var valueType: ValueType {
    switch self {
    case .text: .text
    case .number: .number
    case .integer: .integer
    case .url: .url
    case .date: .date
    case .boolean: .boolean
    }
  }
}
