import FlowIntents

/// The digests `hash` computes.
enum HashAlgorithm: String, AppEnum {
  case md5, sha1, sha256, sha512

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Algorithm"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .md5: "MD5", .sha1: "SHA-1", .sha256: "SHA-256", .sha512: "SHA-512",
  ]
}
