import FlowDiagnostics

/// Workflow files are UTF-8. libyaml would also read UTF-16 with a byte-order mark, but every span, column
/// and excerpt flow prints counts UTF-8 bytes, and a signature covers the bytes as they are: so other
/// encodings are refused at the start, by name, rather than half understood.
enum TextEncoding {
  /// A diagnostic when `bytes` are plainly UTF-16 or UTF-32 (a byte-order mark, or the zero bytes that
  /// ASCII text has in those encodings); nil otherwise, when libyaml's own UTF-8 check takes over.
  static func problem(_ bytes: [UInt8], in file: SourceFile) -> Diagnostic? {
    guard let name = foreignEncoding(bytes) else { return nil }
    return Diagnostic(
      .error, .invalidEncoding, "the file is \(name), but workflow files are UTF-8",
      at: SourceSpan(file: file, at: SourceLocation(line: 1, column: 1))
    )
    .help("save it as UTF-8, e.g. 'iconv -f \(name) -t UTF-8 \(file.path)'")
  }

  private static func foreignEncoding(_ bytes: [UInt8]) -> String? {
    let start = Array(bytes.prefix(4))
    if start.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
      return "UTF-32"
    }
    if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
    // Without a mark: ASCII in UTF-16 has a zero byte beside every character.
    if start.count == 4, (start[0] == 0) != (start[1] == 0), (start[2] == 0) != (start[3] == 0),
      start[0] == start[2]
    {
      return "UTF-16"
    }
    return nil
  }
}
