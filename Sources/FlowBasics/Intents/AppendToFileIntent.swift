import FlowIntents

/// Adds a line to a text file (Shortcuts' Append to Text File).
struct AppendToFileIntent: AppIntent {
  static let title: LocalizedStringResource = "Append to Text File"
  static let description = IntentDescription(
    "Add text at the end of a file on a line of its own (a newline goes before it when the file does not end with one, and after it), making the file when it is missing; one write, so lines from runs at the same time never mix."
  )
  static let sideEffect = SideEffect.changes
  static let machineAccess = [MachineAccess(.writesFiles, parameter: "path")]
  /// A list of lines appends as lines.
  static let linesParameters: Set<String> = ["text"]

  @Parameter(title: "Text", primary: true)
  var text: String

  @Parameter(title: "Path")
  var path: String

  @Parameter(title: "Create Folders", description: "Make the folders on the way when they are missing.", default: false)
  var createFolders: Bool

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Append \(\.$text) to \(\.$path)") { \.$createFolders }
  }

  func perform() async throws -> some ReturnsValue<FileEntity> {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    let separated = files.endsWithNewline(path) ? line : "\n" + line
    let written = try files.write(Array(separated.utf8), to: path, ifExists: .append, createFolders: createFolders)
    return .result(value: try files.item(at: written))
  }
}
