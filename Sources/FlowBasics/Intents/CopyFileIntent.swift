import FlowIntents

/// Copies a file or folder.
struct CopyFileIntent: AppIntent {
  static let title: LocalizedStringResource = "Copy File"
  static let description = IntentDescription(
    "Copy a file or folder to a path, or into a folder that exists; an existing file there stops the step unless 'if-exists' says replace or keep-both. The copy is made under a hidden name and renamed into place."
  )
  // Copying over a file that is there loses what it held: destructive, decided by 'if-exists'.
  static let sideEffect = SideEffect.destructive
  static let sideEffectParameters: Set<String> = ["if-exists"]
  static let machineAccess = [
    MachineAccess(.readsFiles, parameter: "file"), MachineAccess(.writesFiles, parameter: "to"),
    MachineAccess(.replacesFiles, parameter: "to"),
  ]

  static func sideEffect(for values: [String: FlowValue]) -> SideEffect {
    IfExists.sideEffect(values)
  }

  static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess] {
    [
      MachineAccess(.readsFiles, parameter: "file"),
      IfExists.destination("to", values),
    ]
  }

  @Parameter(title: "File", primary: true)
  var file: FileEntity

  @Parameter(title: "To", description: "A folder to copy into, or the new path.")
  var to: String

  @Parameter(title: "If Exists", default: .fail)
  var ifExists: TransferIfExists

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Copy \(\.$file) to \(\.$to)") { \.$ifExists }
  }

  func perform() async throws -> some ReturnsValue<FileEntity> {
    let copied = try files.transfer(file.path, to: to, move: false, ifExists: ifExists.ifExists)
    return .result(value: try files.item(at: copied))
  }
}
