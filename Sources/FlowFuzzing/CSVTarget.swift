import FlowBasics

/// Text as `parse-csv` reads it (``CSV/records(_:separator:)``), with the separator the first byte
/// picks among those a workflow may give; what parses is written back as `make-csv` writes it and must
/// read to the same records.
enum CSVTarget {
  static let separators: [Character] = [",", ";", "\t", "|"]

  static func run(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let separator = separators[Int(first) % separators.count]
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    guard let records = try? CSV.records(text, separator: separator) else { return }
    let written = records.map { CSV.line($0.fields, separator: separator) + "\n" }.joined()
    let again: [[String]]
    do {
      again = try CSV.records(written, separator: separator).map(\.fields)
    } catch {
      fatalError("make-csv wrote what parse-csv refuses (line \(error.line): \(error.message)): \(written)")
    }
    guard again == records.map(\.fields) else {
      fatalError("CSV did not survive a round trip: \(records.map(\.fields)) against \(again)")
    }
  }
}
