import FlowIntents

/// Which ends `trim-text` trims.
enum TrimEnds: String, AppEnum {
  case bothEnds, start, end

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Ends"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .bothEnds: "Both Ends", .start: "Start", .end: "End",
  ]
}
