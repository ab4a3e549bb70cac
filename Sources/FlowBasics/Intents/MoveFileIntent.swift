import FlowIntents

/// Moves or renames a file or folder.
struct MoveFileIntent: AppIntent {
  static let title: LocalizedStringResource = "Move File"
  static let description = IntentDescription(
    "Move a file or folder to a path, or into a folder that exists; giving a new name in the same folder renames it. An existing file there stops the step unless 'if-exists' says replace or keep-both."
  )
  // Moving over a file that is there loses what it held: destructive, decided by 'if-exists'.
  static let sideEffect = SideEffect.destructive
  static let sideEffectParameters: Set<String> = ["if-exists"]
  // A move takes the file away from where it was: that place is written too.
  static let machineAccess = [
    MachineAccess(.writesFiles, parameter: "file"), MachineAccess(.writesFiles, parameter: "to"),
    MachineAccess(.replacesFiles, parameter: "to"),
  ]

  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    IfExists.sideEffect(values)
  }

  static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess] {
    [
      MachineAccess(.writesFiles, parameter: "file"),
      IfExists.destination("to", values),
    ]
  }

  @Parameter(title: "File", primary: true)
  var file: FileEntity

  @Parameter(title: "To", description: "A folder to move into, or the new path.")
  var to: String

  @Parameter(title: "If Exists", default: .fail)
  var ifExists: TransferIfExists

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Move \(\.$file) to \(\.$to)") { \.$ifExists }
  }

  func perform() async throws -> some ReturnsValue<FileEntity> {
    let moved = try files.transfer(file.path, to: to, move: true, ifExists: ifExists.ifExists)
    return .result(value: try files.item(at: moved))
  }
}
