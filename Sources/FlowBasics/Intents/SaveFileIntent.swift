import FlowIntents

/// Writes text or a value to a file (Shortcuts' Save File).
struct SaveFileIntent: AppIntent {
  static let title: LocalizedStringResource = "Save File"
  static let description = IntentDescription(
    "Write text, or a list or dictionary as JSON, to a file, through a temporary file renamed into place so no reader sees half of it. An existing file stops the step unless 'if-exists' says replace, append or keep-both (\"notes 2.txt\")."
  )
  // Writing over a file that is there loses what it held: destructive, decided by 'if-exists'.
  static let sideEffect = SideEffect.destructive
  static let sideEffectParameters: Set<String> = ["if-exists"]
  static let machineAccess = [
    MachineAccess(.writesFiles, parameter: "path"), MachineAccess(.replacesFiles, parameter: "path"),
  ]

  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    IfExists.sideEffect(values)
  }

  static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess] {
    [IfExists.destination("path", values)]
  }

  @Parameter(title: "Content", primary: true)
  var content: FlowValue

  @Parameter(title: "Path")
  var path: String

  @Parameter(title: "If Exists", default: .fail)
  var ifExists: IfExists

  @Parameter(title: "Create Folders", description: "Make the folders on the way when they are missing.", default: false)
  var createFolders: Bool

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Save \(\.$content) to \(\.$path)") {
      \.$ifExists
      \.$createFolders
    }
  }

  func perform() async throws -> some ReturnsValue<FileEntity> {
    let written = try files.write(
      Array(Self.text(of: content).utf8), to: path, ifExists: ifExists, createFolders: createFolders)
    return .result(value: try files.item(at: written))
  }

  /// Text as it is; lists and dictionaries as indented JSON, which reads back with `read-file as: json`.
  static func text(of value: FlowValue) -> String {
    switch value {
    case .list, .dictionary: JSON.encode(value, pretty: true) + "\n"
    default: value.text
    }
  }
}
