import FlowIntents
import FlowLibrary
import FlowPresentation
import FoundationEssentials
import Glibc

/// Where a library workflow came from and who signed it, kept beside it when `flow import` adds it
/// (issue 9): `<library>/.provenance/NAME.json`.
///
/// The library copy is the shared file with the import questions' answers written in and its signature
/// block taken off, so it no longer verifies by itself; the record keeps what was verified at import (the
/// signer's key) and the SHA-256 of the copy as written. While the copy is unchanged, `flow list` and
/// `flow show` say who signed it, under the name the person trusts the key by now; once someone edits it,
/// it is the person's own file and reads `unsigned`.
public struct ProvenanceRecord: Sendable, Codable, Hashable {
  /// The path or URL it was imported from.
  public var source: String
  /// When, in ISO 8601 UTC.
  public var imported: String
  /// The signer's public key in base64; nil for an unsigned file.
  public var signer: String?
  /// The signer's fingerprint, for people reading the record.
  public var fingerprint: String?
  /// The status at import: `trusted`, `unknown-key` or `unsigned`.
  public var status: String
  /// The SHA-256 of the library copy as import wrote it, in hex.
  public var sha256: String
  /// The inputs whose defaults the import questions set.
  public var answered: [String]
  /// What the card the person approved showed the workflow may do (issue 28): a run that would need more
  /// — the file was edited, or a workflow it runs changed — asks again before step 1. Nil in records
  /// written before there was one.
  public var approved: CapabilitySet?
  /// Whether the person said its triggers (`on:`) may start it by themselves: `flow import --arm`, the
  /// card's question, or `flow schedule arm`. Nil or false, `flow schedule` does not arm them.
  public var armed: Bool?

  public init(
    source: String, imported: String, signer: PublicKey?, status: String, copy: [UInt8], answered: [String],
    approved: CapabilitySet? = nil, armed: Bool? = nil
  ) {
    self.approved = approved
    self.armed = armed
    self.source = source
    self.imported = imported
    self.signer = signer?.base64
    self.fingerprint = signer?.fingerprint
    self.status = status
    self.sha256 = Digest.sha256Hex(copy)
    self.answered = answered
  }

  private enum CodingKeys: String, CodingKey {
    case source, imported, signer, fingerprint, status, sha256, answered, approved, armed
  }

  /// An approved card that does not read (edited by hand, or written by a later flow) approves nothing:
  /// the next run asks about everything it may do, rather than the record being lost with the signer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    source = try container.decode(String.self, forKey: .source)
    imported = try container.decode(String.self, forKey: .imported)
    signer = try container.decodeIfPresent(String.self, forKey: .signer)
    fingerprint = try container.decodeIfPresent(String.self, forKey: .fingerprint)
    status = try container.decode(String.self, forKey: .status)
    sha256 = try container.decode(String.self, forKey: .sha256)
    answered = try container.decode([String].self, forKey: .answered)
    armed = try? container.decodeIfPresent(Bool.self, forKey: .armed)
    if container.contains(.approved), (try? container.decodeNil(forKey: .approved)) != true {
      approved = (try? container.decode(CapabilitySet.self, forKey: .approved)) ?? CapabilitySet()
    }
  }

  /// The record of the library workflow at `file`.
  /// Whether the file at the absolute `path` has a record beside it: one `stat`, and no URL built (a
  /// run asks this of every workflow it starts).
  public static func exists(for path: String) -> Bool {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
    var name = path[path.utf8.index(after: slash)...]
    if let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex { name = name[..<dot] }
    // Joined as Strings: appending a Substring is generic, and costs a conformance scan.
    return access(String(path[..<slash]) + "/.provenance/" + String(name) + ".json", F_OK) == 0
  }

  public static func url(for file: URL) -> URL {
    file.deletingLastPathComponent().appendingPathComponent(".provenance")
      .appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".json")
  }

  public static func read(for file: URL) -> ProvenanceRecord? {
    guard let data = try? Data(contentsOf: url(for: file)) else { return nil }
    return try? JSONDecoder().decode(ProvenanceRecord.self, from: data)
  }

  public func write(for file: URL) throws {
    let url = Self.url(for: file)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try PrivateFiles.write(encoder.encode(self) + Data("\n".utf8), to: url)
  }

  /// The signature status of the library copy whose bytes are `current`, with today's trust.
  public func status(of current: [UInt8], trustedName: (PublicKey) -> String?) -> SignatureStatus {
    guard Digest.sha256Hex(current) == sha256, let signer, let key = PublicKey(base64: signer) else { return .unsigned }
    return trustedName(key).map { .trusted(name: $0) } ?? .unknownKey(fingerprint: key.fingerprint)
  }
}
