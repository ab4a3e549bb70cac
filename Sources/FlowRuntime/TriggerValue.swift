import FlowIntents
import FlowModel

/// `${trigger}`: what fired, in a run a trigger started (SPEC §10).
///
/// An entity whose properties are those of the workflow's kinds of trigger (``TriggerFormat``), so that
/// the checker knows `${trigger.file.extension}` before the workflow is armed, and refuses
/// `${trigger.ssid}` in a workflow that no Wi-Fi trigger starts. As text it reads as what happened:
/// `file created: /home/ada/Downloads/a.pdf`.
public enum TriggerValue {
  /// The type of `${trigger}` in a workflow with triggers of `kinds`; `file` is the File entity's type
  /// (from the catalogue, which FlowRuntime does not know by name).
  public static func type(kinds: some Sequence<TriggerKind>, file: ValueType?) -> ValueType {
    let properties = TriggerFormat.properties(for: kinds).map { property in
      PropertySchema(key: property.name, title: property.name, type: type(of: property.type, file: file))
    }
    return .entity(EntityType(name: "Trigger") { properties })
  }

  static func type(of type: TriggerFormat.PropertyType, file: ValueType?) -> ValueType {
    switch type {
    case .text: .text
    case .number: .number
    case .boolean: .boolean
    case .date: .date
    case .file: file ?? .any
    case .files: .list(file ?? .any)
    case .battery: batteryType
    }
  }

  /// `${trigger.battery}`: its percentage, and whether the machine runs on it.
  public static let batteryType = ValueType.entity(
    EntityType(name: "Battery") {
      [
        PropertySchema(key: "percentage", title: "Percentage", type: .number),
        PropertySchema(key: "on-battery", title: "On Battery", type: .boolean),
      ]
    })

  public static func battery(percentage: Double, onBattery: Bool) -> FlowValue {
    let title = "\(Int(percentage.rounded()))%" + (onBattery ? " on battery" : "")
    return .entity(
      EntityValue(
        typeName: "Battery", id: .text(title), title: title,
        properties: ["percentage": .number(percentage), "on-battery": .boolean(onBattery)]))
  }

  /// The value of `${trigger}`: `properties` are the kind's own (``TriggerFormat/Kind/properties``).
  public static func value(
    kind: TriggerKind, event: String, time: FlowValue, summary: String, properties: [(key: String, value: FlowValue)]
  ) -> FlowValue {
    // Every kind's properties, empty where this kind gives none: a workflow with a file and a Wi-Fi
    // trigger reads `${trigger.ssid}` whichever fired, as the checker lets it.
    let given = Dictionary(properties, uniquingKeysWith: { first, _ in first })
    let all: [(key: String, value: FlowValue)] =
      [("kind", .text(kind.rawValue)), ("event", .text(event)), ("time", time)]
      + TriggerFormat.properties(for: TriggerKind.allCases).dropFirst(TriggerFormat.common.count).map {
        ($0.name, given[$0.name] ?? .nothing)
      }
    return .entity(
      EntityValue(
        typeName: "Trigger", id: .text(summary), title: summary, properties: FlowDictionary(all)))
  }
}
