/// The machine-readable form of a diagnostic, for `--json`: the same facts the renderer prints.
///
/// `{"code", "severity", "message", "file", "line", "column", "endLine", "endColumn", "notes", "help"}`;
/// positions are omitted when the diagnostic has none.
extension Diagnostic: Encodable {
  private enum CodingKeys: String, CodingKey {
    case code, severity, message, file, line, column, endLine, endColumn, notes, help
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(code, forKey: .code)
    try container.encode(severity, forKey: .severity)
    try container.encode(message, forKey: .message)
    try container.encodeIfPresent(path, forKey: .file)
    try container.encodeIfPresent(span?.start.line, forKey: .line)
    try container.encodeIfPresent(span?.start.column, forKey: .column)
    try container.encodeIfPresent(span?.end.line, forKey: .endLine)
    try container.encodeIfPresent(span?.end.column, forKey: .endColumn)
    try container.encode(notes, forKey: .notes)
    try container.encode(helps, forKey: .help)
  }
}

extension Diagnostic.Note: Encodable {
  private enum CodingKeys: String, CodingKey {
    case message, file, line, column, endLine, endColumn
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(message, forKey: .message)
    try container.encodeIfPresent(span?.file.path, forKey: .file)
    try container.encodeIfPresent(span?.start.line, forKey: .line)
    try container.encodeIfPresent(span?.start.column, forKey: .column)
    try container.encodeIfPresent(span?.end.line, forKey: .endLine)
    try container.encodeIfPresent(span?.end.column, forKey: .endColumn)
  }
}
