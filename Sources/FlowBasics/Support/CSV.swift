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
  public static func records(_ text: String, separator: Character) throws(ParseError) -> [(line: Int, fields: [String])]
  {
    var records: [(line: Int, fields: [String])] = []
    var fields: [String] = []
    var field = ""
    var line = 1
    var recordLine = 1
    var characters = text.makeIterator()
    var pending: Character? = characters.next()
    // Whether the current field has begun (a quote then starts no quoted field), and the record.
    var fieldStarted = false
    var recordStarted = false

    func endRecord() {
      if recordStarted { records.append((recordLine, fields + [field])) }
      fields = []
      field = ""
      fieldStarted = false
      recordStarted = false
    }

    while let character = pending {
      pending = characters.next()
      switch character {
      case "\"" where !fieldStarted:
        // A quoted field: runs to the quote not followed by another.
        fieldStarted = true
        recordStarted = true
        let openedAt = line
        var closed = false
        while let inner = pending {
          pending = characters.next()
          if inner == "\"" {
            if pending == "\"" {
              field.append("\"")
              pending = characters.next()
            } else {
              closed = true
              break
            }
          } else {
            if inner == "\n" || inner == "\r\n" { line += 1 }
            field.append(inner)
          }
        }
        guard closed else { throw ParseError(line: openedAt, message: "a quoted field is not closed") }
        if let next = pending, next != separator, next != "\n", next != "\r\n", next != "\r" {
          throw ParseError(line: line, message: "text after a closing quote: '\(next)'")
        }
      case "\"":
        throw ParseError(
          line: line,
          message: "a quote inside an unquoted field; a field with quotes is quoted whole, with quotes doubled")
      case separator:
        fields.append(field)
        field = ""
        fieldStarted = false
        recordStarted = true
      case "\n", "\r\n", "\r":
        endRecord()
        line += 1
        recordLine = line
      default:
        field.append(character)
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
    return fields.map { field in
      let needsQuotes = field.contains { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }.joined(separator: String(separator))
  }
}
