import FlowIntents

/// How urgent a notification is: the Desktop Notifications Specification's `urgency` hint. Servers
/// show a critical one until it is dismissed, and may hold back low ones.
enum NotificationUrgency: String, AppEnum {
  case low, normal, critical

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Urgency"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .low: "Low", .normal: "Normal", .critical: "Critical",
  ]

  /// The hint's byte.
  var level: UInt8 {
    switch self {
    case .low: 0
    case .normal: 1
    case .critical: 2
    }
  }
}
