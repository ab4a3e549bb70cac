import FlowIntents

/// The text of a file, or its JSON as a dictionary or list.
struct ReadFileIntent: AppIntent {
  static let title: LocalizedStringResource = "Get Text from File"
  static let description = IntentDescription(
    "Read a regular file's text (UTF-8), or with 'as: json' its JSON as a dictionary or a list; files over 16 MB, folders, devices and pipes are refused."
  )

  static let machineAccess = [MachineAccess(.readsFiles, parameter: "file")]

  @Parameter(title: "File", primary: true)
  var file: FileEntity

  @Parameter(title: "As", default: .text, key: "as")
  var format: ReadFormat

  @Dependency var files: any Files

  static var parameterSummary: some ParameterSummary {
    Summary("Read \(\.$file)") { \.$format }
  }

  /// The most `read-file` reads: as much text as one value may hold (ValueLimits' 16 MiB).
  static let readLimit = 16 << 20

  func perform() async throws -> some ReturnsValue<FlowValue> {
    let bytes = try files.read(file.path, limit: ReadFileIntent.readLimit)
    let text = String(decoding: bytes, as: UTF8.self)
    switch format {
    case .text:
      return .result(value: .text(text))
    case .json:
      do {
        return .result(value: try JSON.parse(text))
      } catch {
        throw AppIntentError.failed(
          "'\(files.locations.display(file.path))' is not JSON: \(error.message)",
          help: "read it with 'as: text' to see what it holds")
      }
    }
  }
}
