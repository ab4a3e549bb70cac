/// Text made of parts that say what they are: a magic variable, a coercion, a value, a keyword. The
/// terminal renderer colours the parts, the share page can draw chips, and the plain text reads alone.
///
/// Magic variables carry their own delimiters (`⟨saved⟩`), so the plain form still shows them apart.
public struct StyledText: Sendable, Hashable, Encodable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// One run of text of one kind.
  public struct Part: Sendable, Hashable, Encodable {
    public enum Kind: String, Sendable, Hashable, Encodable {
      /// The sentence's own words.
      case text
      /// A magic variable: `⟨saved.title⟩`.
      case variable
      /// A conversion the value goes through: ` as URL`.
      case coercion
      /// A value written in the file: `Reading List`, `25`.
      case value
      /// A parameter with no value yet: `[Bookmark]`.
      case placeholder
      /// Ask Each Time: the value is asked for when the step runs.
      case ask
      /// A block's words: If, Otherwise, End If, Repeat.
      case keyword
    }

    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
      self.kind = kind
      self.text = text
    }
  }

  public var parts: [Part]

  public init(_ parts: [Part] = []) {
    self.parts = parts
  }

  public init(stringLiteral value: String) {
    self.parts = value.isEmpty ? [] : [Part(.text, value)]
  }

  /// The plain text.
  public var description: String { parts.map(\.text).joined() }

  public var isEmpty: Bool { parts.allSatisfy { $0.text.isEmpty } }

  /// Appends a part, merging it into the last one when both are of the same kind.
  public mutating func append(_ kind: Part.Kind, _ text: String) {
    guard !text.isEmpty else { return }
    if let last = parts.last, last.kind == kind {
      parts[parts.count - 1].text += text
    } else {
      parts.append(Part(kind, text))
    }
  }

  public mutating func append(_ other: StyledText) {
    for part in other.parts { append(part.kind, part.text) }
  }

  public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
    var joined = lhs
    joined.append(rhs)
    return joined
  }

  /// The pieces joined with `separator` between them.
  public static func join(_ pieces: [StyledText], separator: StyledText) -> StyledText {
    var joined = StyledText()
    for (index, piece) in pieces.enumerated() {
      if index > 0 { joined.append(separator) }
      joined.append(piece)
    }
    return joined
  }

  // The JSON form is the plain text and the parts, so a page can draw chips and a script can read text.
  private enum CodingKeys: String, CodingKey { case text, parts }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(description, forKey: .text)
    try container.encode(parts, forKey: .parts)
  }

}
