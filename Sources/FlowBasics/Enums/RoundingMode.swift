import FlowIntents

/// How `round-number` rounds.
enum RoundingMode: String, AppEnum {
  case nearest, up, down

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Mode"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .nearest: "Normal", .up: "Always Round Up", .down: "Always Round Down",
  ]
}
