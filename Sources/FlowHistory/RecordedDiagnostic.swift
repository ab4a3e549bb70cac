import FlowDiagnostics
import FoundationEssentials

/// A diagnostic as run history keeps it: its facts, with absolute paths, and the source lines it points
/// at, as they were when the run happened.
///
/// `flow runs show` turns it back into a ``Diagnostic`` and prints it with ``DiagnosticRenderer``, like
/// every other diagnostic. The excerpt comes from the kept lines, never from the file as it is now: the
/// file may have changed or gone since, and the excerpt should show what the run saw.
public struct RecordedDiagnostic: Sendable, Hashable, Codable {
  public struct Place: Sendable, Hashable, Codable {
    public var line: Int
    public var column: Int
    public var endLine: Int
    public var endColumn: Int
  }

  public struct Note: Sendable, Hashable, Codable {
    public var message: String
    public var file: String?
    public var place: Place?
  }

  public var severity: Diagnostic.Severity
  public var code: String
  public var message: String
  public var file: String?
  public var place: Place?
  public var notes: [Note]
  public var helps: [String]
  /// The lines the diagnostic and its notes point at, by file and line number.
  public var lines: [String: [Int: String]]

  /// Keeps `diagnostic`, with relative paths made absolute against `directory` and secrets masked.
  public init(_ diagnostic: Diagnostic, workingDirectory directory: String, redact: Redactor) {
    func absolute(_ path: String?) -> String? {
      guard let path else { return nil }
      return path.hasPrefix("/") ? path : URL(fileURLWithPath: directory).appendingPathComponent(path).standardized.path
    }
    func placeOf(_ span: SourceSpan) -> Place {
      Place(line: span.start.line, column: span.start.column, endLine: span.end.line, endColumn: span.end.column)
    }
    var lines: [String: [Int: String]] = [:]
    func keep(_ span: SourceSpan?) {
      guard let span, let path = absolute(span.file.path), let text = span.file.line(span.start.line) else { return }
      lines[path, default: [:]][span.start.line] = redact(text)
    }
    severity = diagnostic.severity
    code = diagnostic.code.rawValue
    message = redact(diagnostic.message)
    file = absolute(diagnostic.path)
    place = diagnostic.span.map(placeOf)
    keep(diagnostic.span)
    notes = diagnostic.notes.map { note in
      keep(note.span)
      return Note(message: redact(note.message), file: absolute(note.span?.file.path), place: note.span.map(placeOf))
    }
    helps = diagnostic.helps.map { redact($0) }
    self.lines = lines
  }

  /// `path:line:column`, or the path alone, or nil.
  public var location: String? {
    guard let file else { return nil }
    return place.map { "\(file):\($0.line):\($0.column)" } ?? file
  }

  /// The diagnostic again, its spans pointing into stand-in files that hold the kept lines at their
  /// numbers (and nothing else), so that the renderer draws the excerpt as it was.
  public func diagnostic() -> Diagnostic {
    var files: [String: SourceFile] = [:]
    func span(_ file: String?, _ place: Place?) -> SourceSpan? {
      guard let file, let place else { return nil }
      let source =
        files[file]
        ?? {
          let kept = lines[file] ?? [:]
          let count = kept.keys.max() ?? 0
          let text = (1..<(count + 1)).map { kept[$0] ?? "" }.joined(separator: "\n")
          let made = SourceFile(path: file, text: text)
          files[file] = made
          return made
        }()
      return SourceSpan(
        file: source, start: SourceLocation(line: place.line, column: place.column),
        end: SourceLocation(line: place.endLine, column: place.endColumn))
    }
    var restored = Diagnostic(
      severity, DiagnosticCode(rawValue: code), message, at: span(file, place),
      notes: notes.map { Diagnostic.Note($0.message, at: span($0.file, $0.place)) }, helps: helps)
    restored.path = file
    return restored
  }
}
