import FlowIntents

/// Which way `base64` goes.
enum Base64Mode: String, AppEnum {
  case encode, decode

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Mode"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [.encode: "Encode", .decode: "Decode"]
}
