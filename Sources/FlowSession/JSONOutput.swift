import FoundationEssentials

extension SessionContext {
  /// The one printer of every `--json` output (`run`, `do`, `validate`, `actions`): pretty JSON with sorted
  /// keys and unescaped slashes, so that all of them read alike and stay stable for scripts and goldens.
  /// The shapes are written down in `Documentation/JSON.md`.
  public func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  /// One JSON object on one line, for output that is a stream of events (`flow schedule --json`): keys
  /// sorted and slashes unescaped as ``printJSON(_:)`` writes them, without the line breaks.
  public func printJSONLine(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
  }
}
