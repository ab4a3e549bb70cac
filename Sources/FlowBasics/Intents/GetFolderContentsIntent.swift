import FlowIntents

/// What a folder holds (Shortcuts' Get Contents of Folder).
struct GetFolderContentsIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Contents of Folder"
  static let description = IntentDescription(
    "List the files and folders in a folder as Files, sorted by name; with 'recursive' those of every folder inside too (links to folders are listed, not entered; a folder inside that cannot be read is listed, its contents left out with a warning). Names starting with a dot are left out unless 'include-hidden' is true."
  )

  static let machineAccess = [MachineAccess(.readsFiles, parameter: "folder")]

  @Parameter(title: "Folder", primary: true)
  var folder: String

  @Parameter(title: "Recursive", default: false)
  var recursive: Bool

  @Parameter(title: "Matching", description: "Only names that match a pattern such as '*.tmp'.")
  var matching: String?

  @Parameter(title: "Include Hidden", default: false)
  var includeHidden: Bool

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Get the contents of \(\.$folder)") {
      \.$recursive
      \.$matching
      \.$includeHidden
    }
  }

  func perform() async throws -> some ReturnsValue<[FileEntity]> {
    .result(value: try files.contents(of: folder, recursive: recursive, hidden: includeHidden, pattern: matching))
  }
}
