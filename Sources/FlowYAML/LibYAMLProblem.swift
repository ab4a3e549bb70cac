internal import CLibYAML
import FlowDiagnostics

/// A libyaml error, captured from the parser and reworded for a person.
///
/// libyaml's messages describe its own state ("did not find expected key while parsing a block
/// mapping"); each known one is mapped to what the writer of the file did and how to fix it. Unknown
/// messages pass through unchanged, with libyaml's context as a note, so nothing is lost.
struct LibYAMLProblem {
  enum Kind { case reader, scanner, parser, other }

  var kind: Kind
  var problem: String
  var context: String?
  var problemMark: SourceLocation
  var contextMark: SourceLocation
  /// For reader errors (bad encoding) libyaml gives a byte offset instead of a position.
  var offset: Int
  var value: Int32

  init(_ parser: yaml_parser_t) {
    switch parser.error {
    case YAML_READER_ERROR: kind = .reader
    case YAML_SCANNER_ERROR: kind = .scanner
    case YAML_PARSER_ERROR: kind = .parser
    default: kind = .other
    }
    problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
    context = parser.context.map { String(cString: $0) }
    problemMark = SourceLocation(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
    contextMark = SourceLocation(line: Int(parser.context_mark.line) + 1, column: Int(parser.context_mark.column) + 1)
    offset = parser.problem_offset
    value = parser.problem_value
  }

  func diagnostic(in file: SourceFile) -> Diagnostic {
    if kind == .reader { return encodingDiagnostic(in: file) }
    let here = SourceSpan(file: file, at: problemMark)
    let start = SourceSpan(file: file, at: contextMark)
    let character = file.character(at: problemMark)

    switch problem {
    case "found character that cannot start any token" where character == "\t",
      "found a tab character where an indentation space is expected",
      "found a tab character that violates indentation":
      return Diagnostic(.error, .yamlSyntax, "tabs cannot be used for indentation", at: here)
        .help("indent with spaces")
    case "found character that cannot start any token":
      let shown = character.map { "'\($0)'" } ?? "this character"
      return Diagnostic(.error, .yamlSyntax, "a plain value cannot start with \(shown)", at: here)
        .help("put the value in quotes")
    case "found unexpected end of stream" where context?.contains("quoted scalar") == true,
      "found unexpected document indicator" where context?.contains("quoted scalar") == true:
      let quote = file.character(at: contextMark).map { "\($0)" } ?? "quote"
      return Diagnostic(.error, .yamlSyntax, "this quoted text has no closing \(quote)", at: start)
        .note("the file ends before the quote is closed", at: here)
        .help("add the closing \(quote), or use a block scalar ('|') for text that spans lines")
    case "mapping values are not allowed in this context":
      return Diagnostic(.error, .yamlSyntax, "unexpected ':' here", at: here)
        .help("check this line's indentation, or quote a value that contains ': '")
    case "did not find expected key":
      return Diagnostic(.error, .yamlSyntax, "bad indentation: expected a key at this position", at: here)
        .note("the mapping starts here", at: start)
        .help("keys of one mapping must start in the same column")
    case "did not find expected '-' indicator":
      return Diagnostic(.error, .yamlSyntax, "bad indentation: expected a list item ('- ') here", at: here)
        .note("the list starts here", at: start)
        .help("items of one list must start in the same column")
    case "block sequence entries are not allowed in this context":
      return Diagnostic(.error, .yamlSyntax, "a list item ('- ') cannot start here", at: here)
        .help("put the list on its own lines, indented under its key")
    case "did not find expected ',' or ']'":
      return Diagnostic(.error, .yamlSyntax, "expected ',' or ']' to continue the list", at: here)
        .note("the list starts here", at: start)
    case "did not find expected ',' or '}'":
      return Diagnostic(.error, .yamlSyntax, "expected ',' or '}' to continue the mapping", at: here)
        .note("the mapping starts here", at: start)
    case "could not find expected ':'":
      return Diagnostic(.error, .yamlSyntax, "expected ':' after this key", at: start)
    case "found unknown escape character":
      return Diagnostic(.error, .yamlSyntax, "unknown escape sequence in double-quoted text", at: here)
        .help("write '\\\\' for a backslash, or use single quotes")
    case "did not find expected <document start>":
      return Diagnostic(.error, .yamlSyntax, "unexpected content after the end of the document", at: here)
    case "did not find expected node content":
      return Diagnostic(.error, .yamlSyntax, "expected a value here", at: here)
    default:
      var diagnostic = Diagnostic(.error, .yamlSyntax, problem, at: here)
      if let context { diagnostic = diagnostic.note(context, at: start) }
      return diagnostic
    }
  }

  /// Encoding problems: libyaml reports a byte offset, turned here into a line and column.
  private func encodingDiagnostic(in file: SourceFile) -> Diagnostic {
    var offset = offset
    // For a bad or missing continuation byte libyaml points past the sequence's first byte; the
    // person should see where the broken character starts.
    if problem.contains("trailing") || problem.contains("incomplete") {
      while offset > 0, offset <= file.bytes.count, file.bytes[offset - 1] & 0x80 != 0 {
        offset -= 1
        if file.bytes[offset] & 0xC0 == 0xC0 { break }
      }
    }
    let location = file.location(ofByte: offset)
    let span = SourceSpan(file: file, at: location)
    switch problem {
    case "control characters are not allowed":
      let code = "U+" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)
      return Diagnostic(.error, .invalidEncoding, "control character \(code) is not allowed in YAML", at: span)
    default:
      let byte = offset < file.bytes.count ? file.bytes[offset] : 0
      let hex = "0x" + Hex.encode([byte], uppercase: true)
      return Diagnostic(.error, .invalidEncoding, "the file is not valid UTF-8 (byte \(hex) here)", at: span)
        .help("save the file as UTF-8")
    }
  }
}

extension SourceFile {
  /// The character at a position, if the line is that long.
  fileprivate func character(at location: SourceLocation) -> Character? {
    guard let text = line(location.line) else { return nil }
    let scalars = text.unicodeScalars
    guard location.column >= 1, location.column <= scalars.count else { return nil }
    return Character(scalars[scalars.index(scalars.startIndex, offsetBy: location.column - 1)])
  }

  /// The line and column (in Unicode scalars) of a byte offset: the position of a byte that may not be
  /// valid UTF-8, so decoding is avoided and only lead bytes are counted.
  func location(ofByte offset: Int) -> SourceLocation {
    var line = 1
    var column = 1
    for index in 0..<min(offset, bytes.count) {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return SourceLocation(line: line, column: column)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
