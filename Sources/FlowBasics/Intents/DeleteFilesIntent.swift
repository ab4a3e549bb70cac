import FlowIntents

/// Moves files to the Trash, or deletes them for good (Shortcuts' Delete Files). Always asks first.
struct DeleteFilesIntent: AppIntent {
  static let title: LocalizedStringResource = "Delete Files"
  static let description = IntentDescription(
    "Move files and folders to the Trash (the freedesktop.org Trash, which file managers and 'trash-list' show and restore), or with 'permanently: true' delete them for good. Always asks first."
  )
  static let sideEffect = SideEffect.destructive
  static let requiresConfirmation = true
  // Whether they can come back is decided by 'permanently'; until it is known, both are possible.
  static let sideEffectParameters: Set<String> = ["permanently"]
  static let machineAccess = [
    MachineAccess(.trashesFiles, parameter: "files"), MachineAccess(.deletesFiles, parameter: "files"),
  ]

  @Parameter(title: "Files", primary: true)
  var files: [FileEntity]

  @Parameter(title: "Permanently", description: "Delete for good instead of moving to the Trash.", default: false)
  var permanently: Bool

  @Dependency var service: any Files
  @Dependency var clock: any FlowClock

  static var parameterSummary: some ParameterSummary {
    Summary("Delete \(\.$files)") { \.$permanently }
  }

  static func machineAccess(for values: [String: FlowValue]) -> [MachineAccess] {
    let permanently = values["permanently"].flatMap { try? Bool(flowValue: $0) } ?? false
    return [MachineAccess(permanently ? .deletesFiles : .trashesFiles, parameter: "files")]
  }

  func perform() async throws -> some IntentResult {
    let now = clock.now
    for file in files {
      if permanently {
        try service.delete(file.path)
      } else {
        _ = try service.trash(file.path, at: now)
      }
    }
    return .result()
  }
}
