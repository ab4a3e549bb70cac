/// A problem to tell the person about: what went wrong, where, and what would help.
///
/// Everything user-facing that has a location becomes a `Diagnostic` before it is printed, and one
/// renderer (``DiagnosticRenderer``) prints them all. Messages are lowercase with no final period, and
/// quote names and values in single quotes: "unknown key 'nmae'".
public struct Diagnostic: Error, Sendable, Hashable {
  public enum Severity: String, Sendable, Hashable, Comparable, Codable {
    case note, warning, error

    private var rank: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
  }

  /// A secondary message, optionally pointing at a second place ("'name' is first defined here").
  public struct Note: Sendable, Hashable {
    public var message: String
    public var span: SourceSpan? { didSet { held = FileHold(span) } }
    private var held: FileHold

    public init(_ message: String, at span: SourceSpan? = nil) {
      self.message = message
      self.span = span
      held = FileHold(span)
    }
  }

  public var severity: Severity
  public var code: DiagnosticCode
  public var message: String
  /// Where the problem is. Nil for problems about a whole file that has no position (a missing file).
  public var span: SourceSpan? { didSet { held = FileHold(span) } }
  private var held: FileHold
  /// The file the problem belongs to when there is no span.
  public var path: String?
  public var notes: [Note]
  public var helps: [String]

  public init(
    _ severity: Severity = .error,
    _ code: DiagnosticCode,
    _ message: String,
    at span: SourceSpan?,
    notes: [Note] = [],
    helps: [String] = []
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.span = span
    held = FileHold(span)
    self.path = held.file?.path
    self.notes = notes
    self.helps = helps
  }

  /// A diagnostic about a whole file, with no line or column.
  public init(
    _ severity: Severity = .error,
    _ code: DiagnosticCode,
    _ message: String,
    file path: String?,
    notes: [Note] = [],
    helps: [String] = []
  ) {
    self.init(severity, code, message, at: nil, notes: notes, helps: helps)
    self.path = path
  }

  /// Adds a `= help:` line.
  public func help(_ text: String?) -> Diagnostic {
    guard let text else { return self }
    var copy = self
    copy.helps.append(text)
    return copy
  }

  /// Adds a `= note:` line, optionally pointing at a second place.
  public func note(_ text: String, at span: SourceSpan? = nil) -> Diagnostic {
    var copy = self
    copy.notes.append(Note(text, at: span))
    return copy
  }
}

/// A stable, kebab-case identifier for a kind of problem.
///
/// Codes are not part of the human format; they key tests, the `--json` output and
/// `Documentation/Diagnostics.md`. Each module declares its own in an extension, next to the code that
/// emits them.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }
}

/// Problems collected while loading and checking, so that all of them are reported in one pass.
public struct Diagnostics: Sendable, Hashable, Sequence {
  public private(set) var all: [Diagnostic] = []

  public init(_ diagnostics: [Diagnostic] = []) { self.all = diagnostics }

  public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }
  public mutating func append(contentsOf other: some Sequence<Diagnostic>) { all.append(contentsOf: other) }

  public var errorCount: Int { all.count { $0.severity == .error } }
  public var warningCount: Int { all.count { $0.severity == .warning } }
  public var hasErrors: Bool { all.contains { $0.severity == .error } }
  public var isEmpty: Bool { all.isEmpty }

  public func makeIterator() -> IndexingIterator<[Diagnostic]> { all.makeIterator() }

  /// In file order: by path, then position; problems without a position first.
  public func sorted() -> [Diagnostic] {
    all.enumerated().sorted { lhs, rhs in
      let l = lhs.element, r = rhs.element
      if (l.path ?? "") != (r.path ?? "") { return (l.path ?? "") < (r.path ?? "") }
      switch (l.span?.start, r.span?.start) {
      case let (a?, b?) where a != b: return a < b
      case (nil, _?): return true
      case (_?, nil): return false
      default: return lhs.offset < rhs.offset
      }
    }.map(\.element)
  }
}

/// An error that carries diagnostics; thrown where one problem must stop the work at hand.
public struct DiagnosticError: Error, Sendable {
  public var diagnostics: Diagnostics
  public init(_ diagnostics: Diagnostics) { self.diagnostics = diagnostics }
  public init(_ diagnostic: Diagnostic) { self.diagnostics = Diagnostics([diagnostic]) }
}

/// Keeps the file a span points into alive as long as a diagnostic about it is: spans name their file by
/// number only, and the registry holds files weakly (see ``SourceFile``). Not part of a diagnostic's value.
struct FileHold: Sendable, Hashable {
  let file: SourceFile?

  init(_ span: SourceSpan?) { file = span?.file }

  static func == (lhs: Self, rhs: Self) -> Bool { true }
  func hash(into hasher: inout Hasher) {}
}
