import FlowIntents

/// The file or folder at a path, or every one a pattern matches (Shortcuts' Get File).
struct GetFileIntent: AppIntent {
  static let title: LocalizedStringResource = "Get File"
  static let description = IntentDescription(
    "Get the file or folder at a path as a File (path, name, extension, folder, size, dates, kind, MIME type); a path with '*', '?' or '[…]' gives a list of every match, sorted, and an empty list when none does. '~' is the home folder; a relative path starts in the working directory."
  )

  static let machineAccess = [MachineAccess(.readsFiles, parameter: "path")]

  @Parameter(title: "Path", description: "A path, or a pattern such as '~/Downloads/*.tmp'.", primary: true)
  var path: String

  @Dependency var files: any Files

  /// A path written out says which: a pattern gives a list of Files, a path one File.
  static func outputType(given parameters: [String: ValueType], literals: [String: FlowValue]) -> ValueType? {
    guard case .text(let path)? = literals["path"] else { return nil }
    return isPattern(path) ? .list(FileEntity.valueType) : FileEntity.valueType
  }

  static var parameterSummary: some ParameterSummary {
    Summary("Get \(\.$path)")
  }

  func perform() async throws -> some ReturnsValue<FlowValue> {
    if Self.isPattern(path) {
      return .result(value: .list(try files.matching(path).map(\.flowValue)))
    }
    return .result(value: try files.item(at: path).flowValue)
  }

  /// Whether a path is a glob pattern, as the shell decides.
  static func isPattern(_ path: String) -> Bool {
    path.contains { $0 == "*" || $0 == "?" || $0 == "[" }
  }
}
