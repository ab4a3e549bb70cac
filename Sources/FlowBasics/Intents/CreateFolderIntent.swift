import FlowIntents

/// Makes a folder (Shortcuts' Create Folder).
struct CreateFolderIntent: AppIntent {
  static let title: LocalizedStringResource = "Create Folder"
  static let description = IntentDescription(
    "Make a folder and the folders on the way to it, as 'mkdir -p' does; a folder that is already there is fine.")
  static let sideEffect = SideEffect.changes
  static let machineAccess = [MachineAccess(.writesFiles, parameter: "path")]

  @Parameter(title: "Path", primary: true)
  var path: String

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Create the folder \(\.$path)")
  }

  func perform() async throws -> some ReturnsValue<FileEntity> {
    .result(value: try files.item(at: try files.createFolder(path, intermediate: true)))
  }
}
