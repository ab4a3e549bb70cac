import FlowIntents

/// Comma-separated values as RFC 4180 writes them: fields in double quotes may hold separators, line
/// breaks and doubled quotes; records end with CRLF or LF.
///
/// Strict where the RFC is (a bare quote in an unquoted field, text after a closing quote, an unclosed
/// quote are errors with their line, as Go's encoding/csv reports them) because guessing there
/// silently shifts every later column.
public enum CSV {
  /// Why some text is not CSV, with the line (from 1) where the problem starts.
  public struct ParseError: Error, Equatable {
    public var line: Int
    public var message: String
  }

  /// The records of `text`, each a list of fields; blank lines are skipped.
  ///
  /// Read scalar by scalar, not by Character: a quote or a separator is one scalar wherever it stands,
  /// whereas a Character may join it to the scalar beside it (a combining mark after an opening quote,
  /// a prepended mark such as U+0603 before a closing one), and the field would not end where it does.
  public static func records(_ text: String, separator: Character) throws(ParseError) -> [(line: Int, fields: [String])]
  {
    let separator = separator.unicodeScalars.first ?? ","
    var records: [(line: Int, fields: [String])] = []
    var fields: [String] = []
    var field = String.UnicodeScalarView()
    var line = 1
    var recordLine = 1
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = scalars.next()
    // Whether the current field has begun (a quote then starts no quoted field), and the record.
    var fieldStarted = false
    var recordStarted = false

    func endRecord() {
      if recordStarted { records.append((recordLine, fields + [String(field)])) }
      fields = []
      field = String.UnicodeScalarView()
      fieldStarted = false
      recordStarted = false
    }

    while let scalar = pending {
      pending = scalars.next()
      switch scalar {
      case "\"" where !fieldStarted:
        // A quoted field: runs to the quote not followed by another.
        fieldStarted = true
        recordStarted = true
        let openedAt = line
        var closed = false
        while let inner = pending {
          pending = scalars.next()
          if inner == "\"" {
            if pending == "\"" {
              field.append("\"")
              pending = scalars.next()
            } else {
              closed = true
              break
            }
          } else {
            // A line break inside: CRLF, LF or a lone CR each count once.
            if inner == "\n" || inner == "\r" && pending != "\n" { line += 1 }
            field.append(inner)
          }
        }
        guard closed else { throw ParseError(line: openedAt, message: "a quoted field is not closed") }
        if let next = pending, next != separator, next != "\n", next != "\r" {
          throw ParseError(line: line, message: "text after a closing quote: '\(Character(next))'")
        }
      case "\"":
        throw ParseError(
          line: line,
          message: "a quote inside an unquoted field; a field with quotes is quoted whole, with quotes doubled")
      case separator:
        fields.append(String(field))
        field = String.UnicodeScalarView()
        fieldStarted = false
        recordStarted = true
      case "\r" where pending == "\n":
        // CRLF: the LF that follows ends the record.
        continue
      case "\n", "\r":
        endRecord()
        line += 1
        recordLine = line
      default:
        field.append(scalar)
        fieldStarted = true
        recordStarted = true
      }
    }
    endRecord()
    return records
  }

  /// One record, with fields quoted where they must be. A record of one empty field is written `""`:
  /// as an empty line it would be skipped when read back, and the row lost.
  public static func line(_ fields: [String], separator: Character) -> String {
    if fields == [""] { return "\"\"" }
    let separator = separator.unicodeScalars.first ?? ","
    var line = String.UnicodeScalarView()
    for (index, field) in fields.enumerated() {
      if index > 0 { line.append(separator) }
      let scalars = field.unicodeScalars
      guard scalars.contains(where: { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        line.append(contentsOf: scalars)
        continue
      }
      line.append("\"")
      for scalar in scalars {
        if scalar == "\"" { line.append("\"") }
        line.append(scalar)
      }
      line.append("\"")
    }
    return String(line)
  }
}
