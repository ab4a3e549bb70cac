/// The signature of a shared workflow file: three comment lines at its very end.
///
/// ```
/// # flow-signature: ed25519
/// # flow-signature-key: <the signer's public key, base64>
/// # flow-signature-value: <the Ed25519 signature, base64>
/// ```
///
/// The signature covers every byte of the file before the block, exactly as they are (comments,
/// formatting and line endings included), so removing the three lines gives back the signed bytes. Being
/// comments, they leave the file a workflow like any other: `flow run` and an editor read it unchanged.
///
/// A file claims a signature when any line starts with `# flow-signature`. The claim must be the three
/// lines above, last in the file, with canonical base64; anything else is malformed. Three lines share the
/// prefix so that one damaged byte cannot make a signed file read as unsigned: at least two lines still
/// claim the signature, and the block no longer reads.
public enum SignatureBlock {
  static let prefix = "# flow-signature"
  static let algorithmLine = "# flow-signature: ed25519"
  static let keyLabel = "# flow-signature-key: "
  static let valueLabel = "# flow-signature-value: "

  /// What was signed is these bytes with a fixed context before them, so that a signature over a
  /// workflow can never be passed off as one over anything else made with the same key.
  static func message(_ content: some Collection<UInt8>) -> [UInt8] {
    Array("flow signed workflow v1\n".utf8) + content
  }

  /// A file's bytes split into what was signed and its signature block.
  public enum Split: Sendable {
    /// No line claims a signature.
    case unsigned
    case signed(content: [UInt8], key: PublicKey, signature: [UInt8])
    /// A line claims a signature, but the block does not read; why, in words.
    case malformed(String)
  }

  public static func split(_ bytes: [UInt8]) -> Split {
    // Only the lines that claim to be part of a block are kept, with their numbers: `flow validate` reads
    // every file through here, and listing every line of a big one cost more than the rest of this.
    let prefix = Array(Self.prefix.utf8)
    var claims: [(line: Int, start: Int, end: Int)] = []
    var lineCount = 0
    // Read in place, without a bounds check on every byte of the file.
    bytes.withUnsafeBufferPointer { bytes in
      var start = 0
      func endLine(at end: Int) {
        if bytes[start..<end].starts(with: prefix) { claims.append((lineCount, start, end)) }
        lineCount += 1
      }
      for index in bytes.indices where bytes[index] == 0x0A {
        endLine(at: index)
        start = index + 1
      }
      if start < bytes.count { endLine(at: bytes.count) }
    }
    guard !claims.isEmpty else { return .unsigned }
    guard claims.count == 3, claims.map(\.line) == [lineCount - 3, lineCount - 2, lineCount - 1] else {
      return .malformed("the signature block must be the last three lines of the file, and only they")
    }
    func text(_ claim: Int) -> String {
      String(decoding: bytes[claims[claim].start..<claims[claim].end], as: UTF8.self)
    }
    let (algorithm, keyLine, valueLine) = (text(0), text(1), text(2))
    guard algorithm == algorithmLine else { return .malformed("the signature block does not name ed25519") }
    guard keyLine.hasPrefix(keyLabel), let key = PublicKey(base64: String(keyLine.dropFirst(keyLabel.count))) else {
      return .malformed("the signer's key does not read")
    }
    guard valueLine.hasPrefix(valueLabel),
      let signature = Base64.canonical(String(valueLine.dropFirst(valueLabel.count)), count: 64)
    else { return .malformed("the signature does not read") }
    return .signed(content: Array(bytes[..<claims[0].start]), key: key, signature: signature)
  }

  /// The block for `signature` by `key`, to append to the signed bytes.
  static func text(key: PublicKey, signature: [UInt8]) -> String {
    """
    \(algorithmLine)
    \(keyLabel)\(key.base64)
    \(valueLabel)\(Base64.encode(signature))

    """
  }
}
