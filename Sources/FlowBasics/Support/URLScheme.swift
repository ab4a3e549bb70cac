/// The scheme of a link written out in a step, for the checks `flow validate` makes before the run.
enum URLScheme {
  /// `FILE:///x` gives `file`; nil for text without a scheme (`example.com/x`).
  static func of(_ text: String) -> String? {
    let trimmed = text.drop { $0 == " " }
    guard let colon = trimmed.firstIndex(of: ":") else { return nil }
    let scheme = trimmed[..<colon]
    guard let first = scheme.first, first.isASCII, first.isLetter,
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    return scheme.lowercased()
  }
}
