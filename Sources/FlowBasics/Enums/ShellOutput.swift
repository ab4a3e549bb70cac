import FlowIntents

/// What `run-shell` passes on from the command.
enum ShellOutput: String, AppEnum {
  case text, lines, json, result

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shell Output"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .text: "Text", .lines: "Lines", .json: "JSON",
    .result: "Shell Result, whatever the exit code",
  ]

  /// The output type a step with this mode makes.
  var valueType: ValueType {
    switch self {
    case .text: .text
    case .lines: .list(.text)
    case .json: .any
    case .result: ShellResultEntity.valueType
    }
  }
}

/// How `run-shell` hands its `input` to the command.
enum PassInput: String, AppEnum {
  case stdin, arguments

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Pass Input"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .stdin: "Standard Input", .arguments: "Arguments",
  ]
}
